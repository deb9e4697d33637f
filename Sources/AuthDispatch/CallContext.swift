import AuthProtocol
import AuthValidation

/// What a method knows about the call besides its params.
package struct CallContext: Sendable {
  package let id: RequestID?
  package let profile: String
  package let locale: MessageLocale
}
