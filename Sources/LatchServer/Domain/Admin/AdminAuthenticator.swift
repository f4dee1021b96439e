import Foundation
import LatchCrypto

/// Decides what the bearer token of an admin request opens (RFC 6750 § 2.1): the data directory's
/// root token opens every tenant; a scoped ``AdminToken`` opens only the tenant it was made for.
///
/// The root token is compared in constant time. A scoped token is found by the SHA-256 of what was
/// presented, so no comparison runs on the secret itself and timing tells nothing about it. Every
/// request reads the store: a token revoked by any process sharing the store (`latchd admin-token
/// revoke` beside a running server) opens nothing from the next request on; there is no cache.
public struct AdminAuthenticator: Sendable {
    /// The longest bearer value looked at; longer ones are malformed without further work.
    public static let maximumTokenLength = 256

    private let store: any Store
    private let clock: any ServerClock
    private let rootToken: [UInt8]

    /// An authenticator over `store`, accepting `rootToken` for every tenant.
    public init(store: any Store, clock: any ServerClock, rootToken: String) {
        self.store = store
        self.clock = clock
        self.rootToken = Array(rootToken.utf8)
    }

    /// What `bearer` opens for a request under `/{tenantName}/admin/`.
    /// - Parameters:
    ///   - bearer: the credential of an `Authorization: Bearer` header, or `nil` when there is none.
    ///   - tenantName: the tenant the request's path names (not looked up for scoped tokens, so the
    ///     answer does not depend on whether it exists).
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func access(bearer: String?, tenantName: String) throws -> AdminAccess {
        guard let bearer else { return .missingToken }
        let presented = Array(bearer.utf8)
        if ConstantTime.equals(presented, rootToken) { return .everyTenant }
        guard Self.isWellFormed(presented) else { return .invalidToken(.malformed) }
        guard bearer.hasPrefix(AdminToken.secretPrefix) else { return .invalidToken(.unknown) }
        let hash = Digest.sha256Hex(bearer)
        let found = try store.read { tx -> (AdminToken, Tenant?)? in
            guard let token = try tx.adminToken(secretHash: hash) else { return nil }
            return (token, try tx.tenant(id: token.tenantID))
        }
        guard let (token, tenant) = found else { return .invalidToken(.unknown) }
        guard token.revokedAt == nil else { return .invalidToken(.revoked) }
        guard let tenant, tenant.name == tenantName else { return .insufficientScope(tokenID: token.id) }
        recordUse(of: token)
        return .tenant(tenant, tokenID: token.id)
    }

    /// Whether `bytes` could be a token at all: 1 to ``maximumTokenLength`` base64url characters.
    private static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        (1...maximumTokenLength).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// Stamps the token's last use when the stored stamp is older than ``AdminToken/lastUseResolution``.
    private func recordUse(of token: AdminToken) {
        let now = clock.now()
        let stale = now.addingTimeInterval(-AdminToken.lastUseResolution)
        if let last = token.lastUsedAt, last >= stale { return }
        // A lost stamp costs only precision in `admin-token list`; it never fails the request.
        try? store.writeRelaxed { tx in try tx.recordAdminTokenUse(id: token.id, at: now, ifLastUseBefore: stale) }
    }
}
