/// Per-tenant policy. Stored as JSON, so new settings get defaults when absent.
public struct TenantSettings: Codable, Sendable, Equatable {
    /// When on, an unknown username and a wrong password get the same answer (no account enumeration).
    public var enumerationProtection: Bool = false
    /// Attributes a sign-up must collect.
    public var requiredAttributes: [AttributeDefinition] = []
    /// When on, every account needs a password; code-only sign-up is answered with `redirect`.
    public var passwordRequiredOnSignUp: Bool = false
    /// Access-token lifetime in seconds.
    public var accessTokenLifetime: Int = 3600
    /// ID-token lifetime in seconds.
    public var idTokenLifetime: Int = 3600
    /// Absolute refresh-token family lifetime in seconds (90 days).
    public var refreshTokenLifetime: Int = 90 * 24 * 3600
    /// Seconds during which the parent of a rotated refresh token is still accepted once more,
    /// covering two concurrent refreshes by one client; 0 turns the window off (RFC 9700 § 4.14.2).
    public var refreshReuseGraceSeconds: Int = 5
    /// One-time code length in digits.
    public var codeLength: Int = 8
    /// One-time code lifetime in seconds.
    public var codeLifetime: Int = 600
    /// Wrong submissions allowed per code before it is burnt.
    public var codeMaxAttempts: Int = 5
    /// Continuation-token lifetime in seconds (each step issues a fresh one).
    public var continuationTokenLifetime: Int = 600
    /// Consecutive wrong passwords or sign-in codes an account may take before sign-in is delayed
    /// (values below 1 count as 1).
    public var signInFailuresBeforeDelay: Int = 5
    /// The first sign-in delay in seconds; it doubles with every further failure.
    public var signInDelayBaseSeconds: Int = 60
    /// The longest sign-in delay in seconds (Keycloak's default maximum wait).
    public var signInDelayMaxSeconds: Int = 900
    /// Seconds a device token stays valid after the sign-in that issued it (90 days); each
    /// sign-in through it renews it. Values below 1 turn device tokens off: none are issued and
    /// presented ones are ignored (OWASP "Slow Down Online Guessing Attacks with Device Cookies").
    public var deviceTokenLifetime: Int = 90 * 24 * 3600
    /// One-time codes of one purpose (sign-up, sign-in, reset) one source address may have sent to
    /// one address per window (e-mail bombing protection); also the most codes one flow may send.
    public var codeSendsPerWindow: Int = 5
    /// One-time codes of one purpose one address may receive per window from all sources together;
    /// higher than ``codeSendsPerWindow``, so one source cannot use up the real user's sends.
    public var codeSendsPerAddressPerWindow: Int = 15
    /// The sliding window of ``codeSendsPerWindow``, in seconds.
    public var codeSendWindowSeconds: Int = 900
    /// Days audit events are kept; older ones are purged in the background (values below 1 count as 1).
    public var auditRetentionDays: Int = 90
    /// Per-source rate limits on flow starts, code sends, password checks and token requests.
    public var rateLimits = RateLimits()
    /// Multi-factor authentication: off, required, or required by conditional-access rules.
    public var mfa = MFASettings()
    /// Whether the account API may create anonymous accounts (sign-up without an e-mail).
    public var anonymousSignIn: Bool = true
    /// How recent (seconds since `auth_time`) a sign-in must be for the account API to change
    /// the e-mail or password, or delete the account.
    public var recentSignInSeconds: Int = 300
    /// Seconds a hosted-page sign-in keeps the browser signed in (single sign-on for later
    /// authorization requests), 14 days by default.
    public var browserSessionLifetime: Int = 14 * 24 * 3600
    /// How the hosted pages present the tenant.
    public var branding = Branding()
    /// The `From` of the tenant's e-mail, `addr@example.com` or `Name <addr@example.com>`
    /// (``MailAddress``; `latchd tenant update --email-from`); `nil` uses the server's `--smtp-from`.
    /// Without a name the brand name (or the tenant's name) is shown.
    public var emailFrom: String?

    /// Default settings.
    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TenantSettings()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        enumerationProtection = try value(.enumerationProtection, defaults.enumerationProtection)
        requiredAttributes = try value(.requiredAttributes, defaults.requiredAttributes)
        passwordRequiredOnSignUp = try value(.passwordRequiredOnSignUp, defaults.passwordRequiredOnSignUp)
        accessTokenLifetime = try value(.accessTokenLifetime, defaults.accessTokenLifetime)
        idTokenLifetime = try value(.idTokenLifetime, defaults.idTokenLifetime)
        refreshTokenLifetime = try value(.refreshTokenLifetime, defaults.refreshTokenLifetime)
        refreshReuseGraceSeconds = try value(.refreshReuseGraceSeconds, defaults.refreshReuseGraceSeconds)
        codeLength = try value(.codeLength, defaults.codeLength)
        codeLifetime = try value(.codeLifetime, defaults.codeLifetime)
        codeMaxAttempts = try value(.codeMaxAttempts, defaults.codeMaxAttempts)
        continuationTokenLifetime = try value(.continuationTokenLifetime, defaults.continuationTokenLifetime)
        signInFailuresBeforeDelay = try value(.signInFailuresBeforeDelay, defaults.signInFailuresBeforeDelay)
        signInDelayBaseSeconds = try value(.signInDelayBaseSeconds, defaults.signInDelayBaseSeconds)
        signInDelayMaxSeconds = try value(.signInDelayMaxSeconds, defaults.signInDelayMaxSeconds)
        deviceTokenLifetime = try value(.deviceTokenLifetime, defaults.deviceTokenLifetime)
        codeSendsPerWindow = try value(.codeSendsPerWindow, defaults.codeSendsPerWindow)
        codeSendsPerAddressPerWindow = try value(.codeSendsPerAddressPerWindow, defaults.codeSendsPerAddressPerWindow)
        codeSendWindowSeconds = try value(.codeSendWindowSeconds, defaults.codeSendWindowSeconds)
        auditRetentionDays = try value(.auditRetentionDays, defaults.auditRetentionDays)
        rateLimits = try value(.rateLimits, defaults.rateLimits)
        mfa = try value(.mfa, defaults.mfa)
        anonymousSignIn = try value(.anonymousSignIn, defaults.anonymousSignIn)
        recentSignInSeconds = try value(.recentSignInSeconds, defaults.recentSignInSeconds)
        browserSessionLifetime = try value(.browserSessionLifetime, defaults.browserSessionLifetime)
        branding = try value(.branding, defaults.branding)
        emailFrom = try container.decodeIfPresent(String.self, forKey: .emailFrom)
    }

    /// The longest a token signed now can stay valid; retired keys stay published this long.
    public var longestSignedTokenLifetime: Int { max(accessTokenLifetime, idTokenLifetime) }

    /// The sign-in delay in seconds after `failures` consecutive failures, or `nil` below the
    /// threshold: `base × 2^(failures − threshold)`, capped at the maximum.
    public func signInDelay(afterFailures failures: Int) -> Int? {
        let threshold = max(1, signInFailuresBeforeDelay)
        guard failures >= threshold else { return nil }
        let base = max(1, signInDelayBaseSeconds)
        let cap = max(base, signInDelayMaxSeconds)
        let doublings = failures - threshold
        guard doublings < 32 else { return cap }
        let (delay, overflow) = base.multipliedReportingOverflow(by: 1 << doublings)
        return overflow ? cap : min(delay, cap)
    }
}
