import AuthProtocol
import AuthProviders
import AuthValidation

/// The short, human text of each error kind, in every locale we ship.
///
/// Messages never carry input values, so they are safe to show and to log.
enum ErrorMessages {
  static func text(_ kind: ErrorKind, _ locale: MessageLocale) -> String {
    let (en, zh) = pair(kind)
    switch locale {
    case .en: return en
    case .zhHans: return zh
    }
  }

  /// `invalid_credentials` for an interactive login the user (or the server) refused.
  static func declined(_ locale: MessageLocale) -> String {
    locale == .zhHans ? "登录未获批准。" : "The sign-in was not approved."
  }

  /// `timeout` for an interactive login nobody completed in time.
  static func notCompleted(_ locale: MessageLocale) -> String {
    locale == .zhHans ? "登录未在规定时间内完成。" : "The sign-in was not completed in time."
  }

  /// `rate_limited` with reason `locked`: waiting does not help, so the text says what does.
  static func locked(_ locale: MessageLocale) -> String {
    locale == .zhHans ? "尝试失败次数过多，账号已锁定。请重置密码或联系管理员。"
      : "Too many failed attempts: the account is locked. Reset the password or ask an administrator."
  }

  /// `invalid_credentials` for a code that was not accepted.
  static func codeRefused(_ refusal: CodeRefusal, _ locale: MessageLocale) -> String {
    switch refusal {
    case .invalidCode: locale == .zhHans ? "验证码不正确。" : "The verification code is incorrect."
    case .codeExpired:
      locale == .zhHans ? "验证码已过期，请重新获取。" : "The verification code has expired. Request a new one."
    }
  }

  /// `server_error` for a code that could not be delivered.
  static func deliveryFailed(_ locale: MessageLocale) -> String {
    locale == .zhHans ? "验证码发送失败，请稍后再试。" : "The code could not be sent. Try again later."
  }

  /// `validation_failed` for a field an interactive login does not take.
  static func notTaken(_ locale: MessageLocale) -> String {
    locale == .zhHans ? "此登录方式不使用该字段。" : "This login flow does not take this field."
  }

  private static func pair(_ kind: ErrorKind) -> (String, String) {
    switch kind {
    case .parseError: return ("The message is not valid JSON.", "消息不是有效的 JSON。")
    case .invalidRequest: return ("The message is not a valid JSON-RPC request.", "消息不是有效的 JSON-RPC 请求。")
    case .methodNotFound: return ("Method not found.", "找不到该方法。")
    case .invalidParams: return ("Invalid params.", "参数无效。")
    case .validationFailed: return ("Some fields are not valid.", "部分字段无效。")
    case .invalidCredentials: return ("The account or password is incorrect.", "账号或密码不正确。")
    case .notLoggedIn: return ("Not logged in.", "尚未登录。")
    case .sessionExpired: return ("The session has expired. Please log in again.", "会话已过期，请重新登录。")
    case .rateLimited: return ("Too many attempts. Please try again later.", "尝试次数过多，请稍后再试。")
    case .networkUnavailable: return ("The server cannot be reached.", "无法连接到服务器。")
    case .timeout: return ("The server took too long to answer.", "服务器响应超时。")
    case .serverError: return ("The server had a problem. Please try again later.", "服务器出现问题，请稍后再试。")
    case .badResponse: return ("The server sent an answer that cannot be understood.", "服务器返回了无法识别的响应。")
    case .tlsError: return ("The secure connection to the server failed.", "与服务器的安全连接失败。")
    case .storageUnavailable: return ("The session store cannot be used right now.", "会话存储暂时无法使用。")
    case .storageCorrupt: return ("The session store is damaged.", "会话存储已损坏。")
    case .alreadyExists: return ("That account already exists.", "该账号已存在。")
    case .unsupported: return ("This is not supported for this profile.", "此配置不支持该操作。")
    case .configError: return ("The configuration is not valid.", "配置无效。")
    case .verificationRequired:
      return ("Enter the verification code to finish signing in.", "请输入验证码以完成登录。")
    case .cancelled: return ("The request was cancelled.", "请求已取消。")
    case .internal: return ("Internal error.", "内部错误。")
    }
  }
}
