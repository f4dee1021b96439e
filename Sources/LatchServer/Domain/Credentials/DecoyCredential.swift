import Foundation
import LatchCrypto

/// Which credential an address without an account pretends to have, under enumeration protection.
///
/// A tenant has two kinds of account: with a password, and code-only. The sign-in challenge answers
/// `password` for the first and `oob` (or `redirect`, when the client takes passwords only) for the
/// second. If every unknown address answered `password`, an `oob` answer would prove that an
/// account exists. So each unknown address is given a kind of its own: code-only with the
/// probability that a real account of the tenant is code-only, decided by a keyed hash of the
/// tenant and the address. The same address always gets the same answer, and an answer says nothing
/// about whether the account exists. The key is derived from the master key (HKDF, RFC 5869), so
/// nobody outside can compute which addresses were given which kind.
///
/// The tenant's share of code-only accounts is a statistic, cached for ``shareLifetime`` seconds.
final class DecoyCredential: Sendable {
    /// Seconds a tenant's share of code-only accounts is reused before it is counted again.
    static let shareLifetime: TimeInterval = 300
    /// The HKDF `info` of the key.
    static let keyInfo = Array("latch decoy credential v1".utf8)

    private struct Share {
        var value: Double
        var countedAt: Date
    }

    private let key: [UInt8]
    private let store: any Store
    private let clock: any ServerClock
    private let shares = ReadMostly<[String: Share]>([:])

    /// Derives the key from `masterKey`.
    /// - Throws: ``CryptoError`` when the derivation fails.
    init(masterKey: [UInt8], store: any Store, clock: any ServerClock) throws {
        key = try HKDF.sha256(inputKey: masterKey, info: Self.keyInfo, outputLength: 32)
        self.store = store
        self.clock = clock
    }

    /// Whether the unknown `address` answers like an account with a password in `tenant`.
    func hasPassword(address: String, tenant: Tenant) throws -> Bool {
        let share = try codeOnlyShare(of: tenant)
        guard share > 0 else { return true }
        let digest = try HMACSHA256.mac(Array("\(tenant.id)\u{0}\(address)".utf8), key: key)
        let draw = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(draw) / 18_446_744_073_709_551_616.0 >= share
    }

    /// The fraction of `tenant`'s accounts that have no password (0 for a tenant without accounts).
    func codeOnlyShare(of tenant: Tenant) throws -> Double {
        let now = clock.now()
        if let cached = shares.read({ $0[tenant.id] }), now.timeIntervalSince(cached.countedAt) < Self.shareLifetime {
            return cached.value
        }
        let (codeOnly, total) = try store.read { tx in
            (try tx.passwordlessUserCount(tenantID: tenant.id), try tx.userCount(tenantID: tenant.id))
        }
        let share = total == 0 ? 0 : Double(codeOnly) / Double(total)
        shares.write { $0[tenant.id] = Share(value: share, countedAt: now) }
        return share
    }
}
