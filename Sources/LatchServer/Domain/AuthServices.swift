import Foundation
import LatchCrypto

/// Everything the adapters call, wired once over one store, clock, hasher and signer.
public struct AuthServices: Sendable {
    /// Tenant and client resolution.
    public let directory: Directory
    /// Password verification (delays, decoy hash, failure counts, audit, rehash).
    public let passwords: PasswordVerifier
    /// Sign-up flows.
    public let signUp: SignUpService
    /// Sign-in flows and the token endpoint.
    public let signIn: SignInService
    /// Password reset flows.
    public let passwordReset: PasswordResetService
    /// Registration of strong authentication methods during sign-in.
    public let methodRegistration: MethodRegistrationService
    /// Token issuing, refresh and verification.
    public let tokens: TokenService
    /// The device authorization grant (RFC 8628): device and user codes, the verification page's
    /// decisions, and the token endpoint's polls.
    public let deviceAuthorizations: DeviceAuthorizationService
    /// The claims of the userinfo endpoint.
    public let userinfo: UserinfoService
    /// Signing keys and JWKS.
    public let keyRing: KeyRing
    /// The tenants' service-account keys, and the custom tokens they sign.
    public let customTokens: CustomTokenService
    /// Seals outbox bodies and codes at rest, and opens them.
    public let messageSealer: MessageSealer
    /// The account API (the Firebase-shaped family).
    public let accounts: AccountService
    /// Account administration as firebase-admin drives it (the Firebase-shaped family).
    public let accountAdmin: AccountAdministration
    /// Out-of-band codes of the account API: verification, address change, password reset and
    /// e-mail link sign-in, with their action links.
    public let oobCodes: OobCodeService
    /// The anti-forgery tokens of the hosted action page's forms.
    public let actionForms: ActionFormGuard
    /// The authorization endpoint's rules and the `authorization_code` grant.
    public let authorization: AuthorizationService
    /// The hosted pages' browser sessions (single sign-on).
    public let browserSessions: BrowserSessionService
    /// Seals the hosted pages' interaction state into their forms.
    public let pageState: PageStateSealer
    /// Administration.
    public let admin: AdminService
    /// Per-source rate limits.
    public let limiter: RateLimiter
    /// Counts of failures that name no account, flushed as summary audit rows.
    public let auditAggregator: AuditAggregator
    /// The store everything shares.
    public let store: any Store
    /// The clock everything shares.
    public let clock: any ServerClock

    /// Wires the services.
    /// - Parameters:
    ///   - masterKey: 32 bytes sealing signing keys and (through keys derived from it) outbox
    ///     bodies at rest and the MACs of device tokens.
    ///   - baseURL: the public origin used in `iss` and discovery.
    ///   - hasher: hashes new passwords and verifies stored ones (Argon2id in production).
    ///   - signer: signs tokens; `nil` uses the key ring itself.
    ///   - deliverable: the channels a transport delivers; a flow that must send a code on another
    ///     is refused with ``AuthFailure/deliveryUnavailable`` instead of queueing codes nobody gets,
    ///     and strong authentication methods are offered and used on these channels only.
    ///   - auditAggregator: counts failures that name no account, for summary audit rows.
    ///   - outboxChanged: wakes the outbox worker after a commit that queued a message.
    ///   - signInObserved: receives each sign-in outcome (metrics).
    ///   - emulator: Firebase emulator mode: unsigned (`alg: none`) custom tokens are accepted.
    ///   - fetchJWKS: reads identity providers' JWKS URLs; `nil` uses libcurl.
    /// - Throws: ``CryptoError`` when the outbox, device-token or action-form key cannot be derived
    ///   from `masterKey`.
    public init(
        store: any Store, clock: any ServerClock, masterKey: [UInt8], baseURL: String,
        hasher: any PasswordHasher = Argon2idHasher(), signer: (any TokenSigner)? = nil,
        policy: PasswordPolicy = PasswordPolicy(), deliverable: Set<DeliveryChannel> = Set(DeliveryChannel.allCases),
        auditAggregator: AuditAggregator = AuditAggregator(),
        outboxChanged: @escaping @Sendable () -> Void = {},
        signInObserved: @escaping @Sendable (SignInOutcome) -> Void = { _ in }, emulator: Bool = false,
        fetchJWKS: ProviderKeyCache.Fetch? = nil
    ) throws {
        self.store = store
        self.clock = clock
        keyRing = KeyRing(store: store, clock: clock, masterKey: masterKey)
        let customTokens = CustomTokenService(store: store, clock: clock, masterKey: masterKey, emulator: emulator)
        self.customTokens = customTokens
        let sealer = try MessageSealer(masterKey: masterKey)
        messageSealer = sealer
        directory = Directory(store: store, clock: clock)
        let limiter = RateLimiter(store: store, clock: clock)
        self.limiter = limiter
        tokens = TokenService(
            store: store, clock: clock, signer: signer ?? keyRing, baseURL: baseURL, limiter: limiter)
        userinfo = UserinfoService(store: store, tokens: tokens)
        deviceAuthorizations = DeviceAuthorizationService(store: store, clock: clock, limiter: limiter, tokens: tokens)
        let flows = FlowEngine(
            store: store, clock: clock, limiter: limiter, sealer: sealer, deliverable: deliverable,
            outboxChanged: outboxChanged)
        let aggregator = auditAggregator
        self.auditAggregator = aggregator
        passwords = PasswordVerifier(
            store: store, hasher: hasher, clock: clock, limiter: limiter, aggregator: aggregator,
            observe: signInObserved)
        let sessions = SessionIssuer(
            tokens: tokens, devices: try DeviceTrust(masterKey: masterKey), flows: flows, clock: clock)
        signUp = SignUpService(flows: flows, hasher: hasher, policy: policy, clock: clock)
        signIn = SignInService(
            flows: flows, passwords: passwords, sessions: sessions, tokens: tokens,
            decoys: try DecoyCredential(masterKey: masterKey, store: store, clock: clock), clock: clock)
        passwordReset = PasswordResetService(flows: flows, hasher: hasher, policy: policy, clock: clock)
        methodRegistration = MethodRegistrationService(flows: flows, clock: clock)
        accounts = AccountService(
            store: store, clock: clock, passwords: passwords, hasher: hasher, policy: policy, tokens: tokens,
            signer: signer ?? keyRing, limiter: limiter, customTokens: customTokens,
            providerTokens: ProviderTokenVerifier(keys: ProviderKeyCache(clock: clock, fetch: fetchJWKS), clock: clock))
        accountAdmin = AccountAdministration(
            store: store, clock: clock, hasher: hasher, policy: policy, accounts: accounts, signer: signer ?? keyRing)
        oobCodes = OobCodeService(
            store: store, clock: clock, limiter: limiter, sealer: sealer, hasher: hasher, policy: policy,
            accounts: accounts, tokens: tokens, deliverable: deliverable, outboxChanged: outboxChanged)
        actionForms = try ActionFormGuard(masterKey: masterKey)
        pageState = try PageStateSealer(masterKey: masterKey)
        browserSessions = BrowserSessionService(store: store, clock: clock)
        authorization = AuthorizationService(
            store: store, clock: clock, directory: directory, limiter: limiter, tokens: tokens)
        admin = AdminService(
            store: store, clock: clock, keyRing: keyRing, sealer: sealer, hasher: hasher, policy: policy,
            customTokens: customTokens)
    }
}
