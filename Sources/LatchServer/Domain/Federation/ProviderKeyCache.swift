import Foundation
import LatchCrypto
import LatchCurl
internal import LatchLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The verification keys of the tenants' identity providers. A static JWKS is parsed once per
/// document; a JWKS URL is fetched (libcurl, `GET`, 200 answers only) and kept for
/// ``lifetime`` seconds, and fetched again early when a token names a `kid` it lacks, at most once
/// per ``refetchInterval`` per provider, so forged `kid`s cannot make the server hammer a provider.
/// A failed fetch keeps the keys already known.
public final class ProviderKeyCache: Sendable {
    /// Fetches a JWKS document: its bytes, or a thrown error.
    public typealias Fetch = @Sendable (URL) throws -> [UInt8]

    /// How long fetched keys are used before they are fetched again, in seconds.
    public static let lifetime: TimeInterval = 600
    /// The shortest time between two fetches for the same provider, in seconds.
    public static let refetchInterval: TimeInterval = 60

    private struct Entry {
        /// The JWKS text or URL the keys came from: a changed provider starts over.
        var source: String
        var keys: [String: SigningKey]
        var fetchedAt: Date?
        var attemptedAt: Date
    }

    private let clock: any ServerClock
    private let fetch: Fetch
    private let entries = Locked<[String: Entry]>([:])

    /// Creates the cache.
    /// - Parameter fetch: how a JWKS URL is read; by default libcurl with a 5-second limit.
    public init(clock: any ServerClock, fetch: Fetch? = nil) {
        self.clock = clock
        self.fetch = fetch ?? Self.curlFetch()
    }

    /// The key `kid` of `provider`, or `nil` when its JWKS has none (after at most one early
    /// fetch) or cannot be read.
    public func key(_ kid: String, of provider: IdentityProvider) -> SigningKey? {
        let name = provider.tenantID + "\u{0}" + provider.providerID
        if let json = provider.jwksJSON {
            if let entry = entries.withLock({ $0[name] }), entry.source == json { return entry.keys[kid] }
            guard let keys = try? ProviderKeySet.keys(of: json) else { return nil }
            entries.withLock { $0[name] = Entry(source: json, keys: keys, fetchedAt: nil, attemptedAt: clock.now()) }
            return keys[kid]
        }
        guard let address = provider.jwksURL, let url = URL(string: address) else { return nil }
        let now = clock.now()
        // Decide under the lock whether this call fetches, so concurrent callers fetch once.
        let (known, shouldFetch) = entries.withLock { entries -> (Entry?, Bool) in
            var entry = entries[name].flatMap { $0.source == address ? $0 : nil }
            let fresh = entry?.fetchedAt.map { now.timeIntervalSince($0) < Self.lifetime } ?? false
            let missing = entry?.keys[kid] == nil
            let mayTry = entry.map { now.timeIntervalSince($0.attemptedAt) >= Self.refetchInterval } ?? true
            let fetching = (!fresh || missing) && mayTry
            if fetching {
                entry = entry ?? Entry(source: address, keys: [:], fetchedAt: nil, attemptedAt: now)
                entry?.attemptedAt = now
                entries[name] = entry
            }
            return (entry, fetching)
        }
        guard shouldFetch else { return known?.keys[kid] }
        guard let document = try? fetch(url), let keys = try? ProviderKeySet.keys(of: document) else {
            return known?.keys[kid]
        }
        entries.withLock { $0[name] = Entry(source: address, keys: keys, fetchedAt: now, attemptedAt: now) }
        return keys[kid]
    }

    /// Reads a JWKS URL with libcurl: `GET`, no redirects, at most ``ProviderKeySet/maximumSize`` bytes.
    private static func curlFetch() -> Fetch {
        let client = CurlHTTPClient(certificateAuthorityFile: nil, timeout: 5)
        return { url in
            var request = URLRequest(url: url)
            request.httpMethod = "GET"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (body, response) = try client.blockingData(for: request)
            guard response.statusCode == 200, body.count <= ProviderKeySet.maximumSize else {
                throw AuthFailure.invalidParameter(.jwks)
            }
            return Array(body)
        }
    }
}
