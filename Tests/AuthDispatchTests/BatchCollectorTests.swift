import AuthJSON
import AuthProtocol
import Testing

@testable import AuthDispatch

@Suite struct BatchCollectorTests {
  @Test func sendsOnceWhenTheLastAnswerArrivesInSlotOrder() {
    let sender = CapturingSender()
    let collector = BatchCollector(expected: 3, sender: sender, maxAnswerBytes: .max)
    collector.reply(slot: 2)(.result(id: .number("3"), EncodedJSON.null))
    collector.reply(slot: 0)(.result(id: .number("1"), EncodedJSON.null))
    #expect(sender.count == 0)
    collector.reply(slot: 1)(.error(id: .number("2"), .parseError("x")))
    #expect(sender.count == 1)
    #expect(sender.messages.first?.arrayValue?.map(\.id) == [1, 2, 3])
  }

  @Test func aSecondAnswerForASlotIsIgnored() {
    let sender = CapturingSender()
    let collector = BatchCollector(expected: 2, sender: sender, maxAnswerBytes: .max)
    let first = collector.reply(slot: 0)
    first(.result(id: .number("1"), EncodedJSON.null))
    first(.result(id: .number("99"), EncodedJSON.null))
    #expect(sender.count == 0)
    collector.reply(slot: 1)(.result(id: .number("2"), EncodedJSON.null))
    #expect(sender.messages.first?.arrayValue?.map(\.id) == [1, 2])
  }

  @Test func concurrentAnswersMakeOneArray() async {
    let sender = CapturingSender()
    let collector = BatchCollector(expected: 100, sender: sender, maxAnswerBytes: .max)
    await withTaskGroup(of: Void.self) { group in
      for slot in 0..<100 {
        let reply = collector.reply(slot: slot)
        group.addTask { reply(.result(id: .number(String(slot)), EncodedJSON.null)) }
      }
    }
    #expect(sender.count == 1)
    #expect(sender.messages.first?.arrayValue?.map(\.id) == (0..<100).map { .number(JSONNumber($0)) })
  }
}
