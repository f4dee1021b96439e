import Foundation

/// What the verification page shows the user about a pending device authorization before they
/// approve it (RFC 8628 § 3.3: the user should see which client asks, so a phished code is
/// recognised).
public struct PendingDeviceAuthorization: Sendable, Equatable {
    /// The client that asked.
    public var clientID: String
    /// The client's display name.
    public var clientName: String
    /// The scopes the client will get.
    public var scopes: [String]
    /// When the code stops working.
    public var expiresAt: Date
    /// The user code in its display form, `XXXX-XXXX`.
    public var userCode: String

    /// Creates a summary.
    public init(clientID: String, clientName: String, scopes: [String], expiresAt: Date, userCode: String) {
        self.clientID = clientID
        self.clientName = clientName
        self.scopes = scopes
        self.expiresAt = expiresAt
        self.userCode = userCode
    }
}
