import Foundation

/// One refresh token of a ``TokenFamily``; only its SHA-256 is stored.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// Hex SHA-256 of the opaque token.
    public var hash: String
    /// The family (session) it belongs to.
    public var familyID: String
    /// When it was issued.
    public var createdAt: Date
    /// When it was exchanged for a successor; a second exchange after the grace window is reuse.
    public var rotatedAt: Date?
    /// Whether the grace window was already spent: a rotated token is re-exchanged at most once.
    public var graceReissued: Bool

    /// Creates a record.
    public init(hash: String, familyID: String, createdAt: Date, rotatedAt: Date? = nil, graceReissued: Bool = false) {
        self.hash = hash
        self.familyID = familyID
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.graceReissued = graceReissued
    }
}
