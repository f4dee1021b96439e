/// The user name and password an SMTP client authenticates with (AUTH, RFC 4954; libcurl picks
/// the strongest mechanism the server offers: CURLOPT_USERNAME(3), CURLOPT_PASSWORD(3)).
///
/// Its descriptions name the user only, so no log line, error or debug print can show the
/// password.
///
/// ```swift
/// let credentials = SMTPCredentials(username: "latch", password: password)
/// print(credentials)   // SMTPCredentials(username: latch, password: <redacted>)
/// ```
public struct SMTPCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user name.
    public let username: String
    /// The password; never printed.
    let password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - username: the user name, as the server knows it.
    ///   - password: the password, as read from the environment or a file.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var description: String { "SMTPCredentials(username: \(username), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["username": username], displayStyle: .struct) }
}
