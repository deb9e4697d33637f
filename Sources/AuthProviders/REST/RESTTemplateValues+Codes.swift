/// The code flows' values: the code the user typed, a step-up's challenge, a reset's new password, and what
/// `sendCode` is for and where it goes. Codes and challenges are secrets: they only ever reach a request body.
extension RESTTemplateValues {
  /// A step-up's second step: the code typed for `challenge`.
  init(code: String, challenge: String) {
    self.init()
    self.code = code
    self.challenge = challenge
  }

  /// A resend for a step-up: the code goes where the challenge's first one went.
  init(challenge: String, purpose: String) {
    self.init()
    self.challenge = challenge
    self.purpose = purpose
  }

  var code: String? {
    get { self[.code] }
    set { self[.code] = newValue }
  }

  var challenge: String? {
    get { self[.challenge] }
    set { self[.challenge] = newValue }
  }

  var newPassword: String? {
    get { self[.newPassword] }
    set { self[.newPassword] = newValue }
  }

  var purpose: String? {
    get { self[.purpose] }
    set { self[.purpose] = newValue }
  }

  var channel: String? {
    get { self[.channel] }
    set { self[.channel] = newValue }
  }
}
