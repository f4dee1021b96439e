import Foundation

/// One refresh token of a ``TokenFamily``; only its SHA-256 is stored.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// Hex SHA-256 of the opaque token.
    public var hash: String
    /// The family (session) it belongs to.
    public var familyID: String
    /// When it was issued.
    public var createdAt: Date
    /// When it was exchanged for a successor; presenting it again is reuse, except inside the grace
    /// window while its successor is still unused.
    public var rotatedAt: Date?
    /// The hash of the successor it was exchanged for (the one re-exchange inside the grace window
    /// replaces it).
    public var successorHash: String?

    /// Creates a record.
    public init(hash: String, familyID: String, createdAt: Date, rotatedAt: Date? = nil, successorHash: String? = nil) {
        self.hash = hash
        self.familyID = familyID
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.successorHash = successorHash
    }
}
