import AuthJSON
import AuthProtocol
import AuthValidation
import Testing

@testable import AuthDispatch

@Suite struct ErrorTranslatorTests {
  struct Secretive: Error, CustomStringConvertible {
    var description: String { "password=hunter2" }
  }

  @Test func rpcErrorsPassThrough() {
    let error = RPCError(.notLoggedIn, "Not logged in.", details: ["lastAccount": "a@b.co"])
    #expect(ErrorTranslator().translate(error, locale: .zhHans) == error)
  }

  @Test func cancellationBecomesCancelled() {
    let error = ErrorTranslator().translate(CancellationError(), locale: .en)
    #expect(error.kind == .cancelled)
    #expect(error.code == -32800)
    #expect(error.message == "The request was cancelled.")
  }

  @Test func unknownErrorsAreInternalAndReportedByTypeOnly() {
    let reports = EventLog()
    let error = ErrorTranslator(report: { reports.append($0) }).translate(Secretive(), locale: .en)
    #expect(error.kind == .internal)
    #expect(error.message == "Internal error.")
    #expect(!JSONWriter.string(error.json).contains("hunter2"))
    #expect(reports.all == ["internal error: Secretive"])
  }

  @Test(arguments: ErrorKind.allCases)
  func everyKindHasAMessageInEveryLocale(kind: ErrorKind) {
    let en = ErrorMessages.text(kind, .en)
    let zh = ErrorMessages.text(kind, .zhHans)
    #expect(!en.isEmpty)
    #expect(!zh.isEmpty)
    #expect(en != zh)
  }

  @Test func tooManyInFlightShape() {
    let error = ErrorTranslator().tooManyInFlight(locale: .en)
    #expect(
      JSONWriter.string(error.json)
        == #"{"code":-32005,"message":"Too many attempts. Please try again later.","data":{"kind":"rate_limited","retryable":true,"reason":"too_many_in_flight"}}"#
    )
  }

  @Test func localizedUsesTheLocale() {
    #expect(ErrorTranslator().localized(.timeout, .zhHans).message == "服务器响应超时。")
    #expect(ErrorTranslator().localized(.timeout, .en, details: ["status": 504]).details["status"] == 504)
  }

  /// An interactive login answers with no input echoed: each field sent is `not_taken`.
  @Test func fieldsAnInteractiveLoginDoesNotTakeAreValidationFailed() {
    let error = ErrorTranslator().translate(FieldsNotTaken(fields: [.account, .password]), locale: .en)
    #expect(
      JSONWriter.string(error.json)
        == #"{"code":-32001,"message":"Some fields are not valid.","data":{"kind":"validation_failed","retryable":false,"#
        + #""fields":{"account":{"valid":false,"errors":[{"code":"not_taken","message":"This login flow does not take "#
        + #"this field."}]},"password":{"valid":false,"errors":[{"code":"not_taken","message":"This login flow does "#
        + #"not take this field."}]}}}}"#)
  }
}
