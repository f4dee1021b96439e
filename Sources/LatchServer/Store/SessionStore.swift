import Foundation

/// Sign-in sessions: token families and their refresh tokens.
public protocol SessionReading {
    /// The refresh token with this hash.
    func refreshToken(hash: String) throws -> RefreshTokenRecord?
    /// A token family.
    func tokenFamily(id: String) throws -> TokenFamily?
}

/// Changes to sessions. Rotation is conditional, so two concurrent refreshes of one token can
/// never both extend the chain.
public protocol SessionWriting: SessionReading {
    /// Adds a token family.
    func insert(_ family: TokenFamily) throws
    /// Revokes one family.
    func revokeFamily(id: String, at date: Date) throws
    /// Records a later authentication of the session `id` (a step-up): its methods and time.
    func updateFamilyAuthentication(id: String, amr: [String], authTime: Date) throws
    /// Revokes every family of a user.
    func revokeFamilies(userID: String, at date: Date) throws
    /// Adds a refresh token.
    func insert(_ token: RefreshTokenRecord) throws
    /// Marks the refresh token `hash` as exchanged for `successorHash`, if it has not been exchanged.
    /// - Returns: whether it applied (the caller is the one that rotated it).
    func rotateRefreshToken(hash: String, successorHash: String, at date: Date) throws -> Bool
    /// Inside the grace window: deletes the successor `currentSuccessorHash` of the rotated token
    /// `hash` if that successor was never used, and makes `newSuccessorHash` the successor instead.
    /// - Returns: whether it applied; `false` when the successor was used (or already replaced).
    func replaceUnusedSuccessor(of hash: String, current currentSuccessorHash: String, with newSuccessorHash: String)
        throws -> Bool
}
