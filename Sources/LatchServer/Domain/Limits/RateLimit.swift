/// One token bucket's size and refill: at most `count` requests at once, refilled at `count` per
/// `periodSeconds` (so "30 per 300 s" is a burst of 30, then one every 10 s). A `count` below 1
/// turns the limit off.
public struct RateLimit: Codable, Sendable, Equatable {
    /// The bucket's capacity, and the requests it regains per period.
    public var count: Int
    /// The refill period in seconds (values below 1 count as 1).
    public var periodSeconds: Int

    /// A limit of `count` per `periodSeconds`.
    public init(count: Int, periodSeconds: Int) {
        self.count = count
        self.periodSeconds = periodSeconds
    }

    /// Whether the limit applies at all.
    public var isEnabled: Bool { count >= 1 }

    /// Tokens regained per second.
    public var refillPerSecond: Double { Double(count) / Double(max(1, periodSeconds)) }

    /// Parses `N/PERIOD`, the period in seconds or with a unit: `30/300`, `30/5m`, `100/1h`, `0/1s` (off).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), count >= 0, count <= 1_000_000,
            let period = Self.seconds(parts[1]), period >= 1, period <= 7 * 24 * 3600
        else { return nil }
        self.init(count: count, periodSeconds: period)
    }

    /// `N/PERIOD` with the largest whole unit, the form ``init(parsing:)`` reads.
    public var description: String {
        let seconds = max(1, periodSeconds)
        for (unit, size) in [("h", 3600), ("m", 60)] where seconds % size == 0 {
            return "\(count)/\(seconds / size)\(unit)"
        }
        return "\(count)/\(seconds)s"
    }

    private static func seconds(_ text: Substring) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        if let last = text.last, let size = units[last] { return Int(text.dropLast()).map { $0 * size } }
        return Int(text)
    }
}

/// A tenant's per-source rate limits, one per ``RateLimitKind``. Stored in the tenant's settings
/// as JSON; kinds absent from stored settings get their defaults.
public struct RateLimits: Codable, Sendable, Equatable {
    /// Flow starts per source: 30 per 5 minutes.
    public var flowStarts = RateLimit(count: 30, periodSeconds: 300)
    /// Code sends per source, to any addresses: 10 per 10 minutes.
    public var codeSends = RateLimit(count: 10, periodSeconds: 600)
    /// Password checks per source, across accounts: 30 per 5 minutes.
    public var passwordAttempts = RateLimit(count: 30, periodSeconds: 300)
    /// Token requests per source: 300 per 5 minutes.
    public var tokenRequests = RateLimit(count: 300, periodSeconds: 300)
    /// Wrong user codes per source: 10 per 5 minutes.
    public var userCodeGuesses = RateLimit(count: 10, periodSeconds: 300)

    /// The defaults.
    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RateLimits()
        flowStarts = try container.decodeIfPresent(RateLimit.self, forKey: .flowStarts) ?? defaults.flowStarts
        codeSends = try container.decodeIfPresent(RateLimit.self, forKey: .codeSends) ?? defaults.codeSends
        passwordAttempts =
            try container.decodeIfPresent(RateLimit.self, forKey: .passwordAttempts) ?? defaults.passwordAttempts
        tokenRequests = try container.decodeIfPresent(RateLimit.self, forKey: .tokenRequests) ?? defaults.tokenRequests
        userCodeGuesses =
            try container.decodeIfPresent(RateLimit.self, forKey: .userCodeGuesses) ?? defaults.userCodeGuesses
    }

    /// The limit of `kind`.
    public subscript(kind: RateLimitKind) -> RateLimit {
        get {
            switch kind {
            case .flowStarts: flowStarts
            case .codeSends: codeSends
            case .passwordAttempts: passwordAttempts
            case .tokenRequests: tokenRequests
            case .userCodeGuesses: userCodeGuesses
            }
        }
        set {
            switch kind {
            case .flowStarts: flowStarts = newValue
            case .codeSends: codeSends = newValue
            case .passwordAttempts: passwordAttempts = newValue
            case .tokenRequests: tokenRequests = newValue
            case .userCodeGuesses: userCodeGuesses = newValue
            }
        }
    }

    /// Every limit off (for tests and trusted back-ends).
    public static let off: RateLimits = {
        var limits = RateLimits()
        for kind in RateLimitKind.allCases { limits[kind] = RateLimit(count: 0, periodSeconds: 1) }
        return limits
    }()
}
