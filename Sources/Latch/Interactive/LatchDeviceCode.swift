import Foundation

/// What the user needs to approve a device-code sign-in on another device (RFC 8628 § 3.2-3.3):
/// the code to type and where to type it. ``LatchClient/acquireTokenWithDeviceCode(scopes:correlationID:onCode:)``
/// hands it to the app once, before it starts polling.
public struct LatchDeviceCode: Sendable, Equatable {
    /// The code the user enters on the verification page (`user_code`).
    public let userCode: String
    /// The verification page (`verification_uri`).
    public let verificationURI: URL
    /// The verification page with the code filled in (`verification_uri_complete`), e.g. for a
    /// QR code, when the server sent one.
    public let verificationURIComplete: URL?
    /// When the code expires (`expires_in` after it was issued).
    public let expiresOn: Date
    /// The seconds between polls the server asked for (`interval`, default 5).
    public let interval: TimeInterval
    /// The server's instructions for the user, when it sent any.
    public let message: String?

    /// Creates a value (for previews and tests; the SDK builds them from the server's answer).
    public init(
        userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil, expiresOn: Date,
        interval: TimeInterval = 5, message: String? = nil
    ) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresOn = expiresOn
        self.interval = interval
        self.message = message
    }
}
