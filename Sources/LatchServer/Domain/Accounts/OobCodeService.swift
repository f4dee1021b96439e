import Foundation
import LatchCrypto

/// Out-of-band codes of the account API (`reference/firebase-auth-protocol.md` § 2,
/// `accounts:sendOobCode`, `accounts:resetPassword`, `accounts:update` with `oobCode`,
/// `accounts:signInWithEmailLink`; the link layout of § 7): e-mail verification, address change,
/// password reset and e-mail link sign-in.
///
/// A code is 32 random bytes, base64url; the store keeps only its SHA-256 (``OobCode``), bound to
/// the tenant, the request kind, the account and the address (and the new address of a change). It
/// expires after ``lifetime`` and works once: applying it deletes it in the write that applies it,
/// with a statement that reports whether it applied, so two concurrent applications give exactly one
/// success. Its message is committed to the outbox in the same transaction as the code.
public struct OobCodeService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let limiter: RateLimiter
    let sealer: MessageSealer
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let accounts: AccountService
    let tokens: TokenService
    let deliverable: Set<DeliveryChannel>
    let outboxChanged: @Sendable () -> Void

    /// How long a code works: one hour, for every kind.
    public static let lifetime: TimeInterval = 3600

    /// The longest `continueUrl` accepted.
    static let maximumContinueURLLength = 2048

    // MARK: - Sending

    /// Sends a code of `kind` by e-mail for the account API's `sendOobCode`:
    /// - ``OobCodeKind/verifyEmail``: for the current address of the account `idToken` names;
    /// - ``OobCodeKind/passwordReset``: for the account of `email`; under the tenant's enumeration
    ///   protection an unknown address succeeds and nothing is sent;
    /// - ``OobCodeKind/verifyAndChangeEmail``: to `newEmail`, for the account `idToken` names, which
    ///   needs a recent sign-in;
    /// - ``OobCodeKind/emailSignIn``: to `email`, whether or not it has an account.
    ///
    /// - Returns: the address to echo (`email` in the answer).
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (per source, and per address within
    ///   ``TenantSettings/codeSendWindowSeconds``), missing or invalid `.email`, `.newEmail` or
    ///   `.continueURL`, ``AuthFailure/userNotFound``, ``AuthFailure/userDisabled``,
    ///   ``AuthFailure/userAlreadyExists`` (the new address is taken),
    ///   ``AuthFailure/recentSignInRequired``, ``AuthFailure/deliveryUnavailable``, and the
    ///   failures of ``AccountService/authenticate(_:idToken:)``.
    public func send(
        _ context: ClientContext, kind: OobCodeKind, idToken: String?, email: String?, newEmail: String?,
        continueURL: String?
    ) throws -> String {
        let continueURL = try Self.validContinueURL(continueURL)
        guard deliverable.contains(.email) else { throw AuthFailure.deliveryUnavailable }
        let tenant = context.tenant
        let target: Target
        switch kind {
        case .verifyEmail:
            let (user, _) = try accounts.authenticate(context, idToken: idToken)
            guard let address = AccountProfile.email(of: user) else { throw AuthFailure.missingParameter(.email) }
            target = Target(user: user, email: address, newEmail: nil, recipient: address)
        case .verifyAndChangeEmail:
            let (user, authTime) = try accounts.authenticate(context, idToken: idToken)
            if Int(clock.now().timeIntervalSince1970) - authTime > tenant.settings.recentSignInSeconds {
                throw AuthFailure.recentSignInRequired
            }
            let address = try Self.address(newEmail, parameter: .newEmail)
            target = Target(user: user, email: user.email, newEmail: address, recipient: address)
        case .passwordReset:
            let address = try Self.address(email, parameter: .email)
            target = Target(user: nil, email: address, newEmail: nil, recipient: address)
        case .emailSignIn:
            let address = try Self.address(email, parameter: .email)
            target = Target(user: nil, email: address, newEmail: nil, recipient: address)
        }
        try limiter.admit(.codeSends, context)
        let issued: IssuedOobCode? = try store.write { tx in
            try checkAddressLimit(tx, tenant: tenant, recipient: target.recipient, kind: kind)
            try tx.recordCodeSend(
                tenantID: tenant.id, recipient: target.recipient, purpose: Self.purpose(kind),
                source: context.remoteAddress, at: clock.now())
            var resolved = target
            switch kind {
            case .passwordReset:
                guard let user = try Self.account(tx, email: target.email, tenantID: tenant.id) else {
                    // Under enumeration protection an unknown address reads as sent; the ledger
                    // above still counts it, so it meets the limits a real one does.
                    if tenant.settings.enumerationProtection { return nil }
                    throw AuthFailure.userNotFound
                }
                guard !user.disabled else {
                    if tenant.settings.enumerationProtection { return nil }
                    throw AuthFailure.userDisabled
                }
                resolved.user = user
            case .verifyAndChangeEmail:
                if let holder = try tx.user(email: target.recipient, tenantID: tenant.id), holder.id != target.user?.id {
                    throw AuthFailure.userAlreadyExists
                }
            case .verifyEmail, .emailSignIn:
                break
            }
            return try mint(tx, context: context, kind: kind, target: resolved, continueURL: continueURL, deliver: true)
        }
        if issued != nil { outboxChanged() }
        return target.recipient
    }

    /// Makes a code of `kind` for the account of `email` (for ``OobCodeKind/emailSignIn``, for the
    /// address itself) and returns it with its action link, for the administration surface
    /// (`returnOobLink`, firebase-admin's `generate_*_link`). No rate limit, no recent sign-in and no
    /// enumeration protection apply: the caller is an administrator.
    /// - Parameters:
    ///   - newEmail: the new address, for ``OobCodeKind/verifyAndChangeEmail``.
    ///   - continueURL: an absolute `http`/`https` URL carried in the link as `continueUrl`.
    ///   - deliver: also commit the message to the outbox (in the same transaction), as
    ///     ``send(_:kind:idToken:email:newEmail:continueURL:)`` does.
    /// - Throws: missing or invalid `.email`, `.newEmail` or `.continueURL`,
    ///   ``AuthFailure/userNotFound``, ``AuthFailure/userAlreadyExists`` (the new address is taken),
    ///   ``AuthFailure/deliveryUnavailable`` (with `deliver` and no e-mail transport).
    public func issue(
        _ context: ClientContext, kind: OobCodeKind, email: String?, newEmail: String? = nil, continueURL: String? = nil,
        deliver: Bool
    ) throws -> IssuedOobCode {
        let continueURL = try Self.validContinueURL(continueURL)
        if deliver, !deliverable.contains(.email) { throw AuthFailure.deliveryUnavailable }
        let address = try Self.address(email, parameter: .email)
        let changed = kind == .verifyAndChangeEmail ? try Self.address(newEmail, parameter: .newEmail) : nil
        let tenant = context.tenant
        let issued = try store.write { tx -> IssuedOobCode in
            var target = Target(user: nil, email: address, newEmail: changed, recipient: changed ?? address)
            if kind != .emailSignIn {
                guard let user = try Self.account(tx, email: address, tenantID: tenant.id) else {
                    throw AuthFailure.userNotFound
                }
                target.user = user
            }
            if let changed, let holder = try tx.user(email: changed, tenantID: tenant.id), holder.id != target.user?.id {
                throw AuthFailure.userAlreadyExists
            }
            return try mint(tx, context: context, kind: kind, target: target, continueURL: continueURL, deliver: deliver)
        }
        if deliver { outboxChanged() }
        return issued
    }

    // MARK: - Checking and applying

    /// What `code` is for, if it is a valid code of one of `kinds` in the caller's tenant; it is not
    /// used up (the account API's `resetPassword` without a new password, the action page's GET).
    /// - Throws: ``AuthFailure/missingParameter(_:)`` (`.oneTimeCode`), ``AuthFailure/invalidCode``
    ///   (unknown, used, of another kind or tenant), ``AuthFailure/codeExpired``.
    public func check(_ context: ClientContext, code: String?, kinds: Set<OobCodeKind> = Set(OobCodeKind.allCases))
        throws -> OobCodeInfo
    {
        let record = try store.read { try valid($0, code: code, tenant: context.tenant, kinds: kinds) }
        return OobCodeInfo(
            kind: record.kind, email: record.email, newEmail: record.newEmail, continueURL: record.continueURL)
    }

    /// Sets the password of the account a ``OobCodeKind/passwordReset`` code was sent for, under
    /// the tenant's ``PasswordPolicy``, and uses the code up. The address counts as verified, the
    /// account's `validSince` moves to now and its sessions end.
    /// - Returns: the account's address.
    /// - Throws: as ``check(_:code:kinds:)``, and ``AuthFailure/passwordPolicy(_:)``,
    ///   ``AuthFailure/missingParameter(_:)`` (`.newPassword`), ``AuthFailure/userDisabled``.
    public func resetPassword(_ context: ClientContext, code: String?, newPassword: String?) throws -> String {
        let tenant = context.tenant
        let record = try store.read { try valid($0, code: code, tenant: tenant, kinds: [.passwordReset]) }
        let user = try store.read { try Self.boundAccount($0, record) }
        guard !user.disabled else { throw AuthFailure.userDisabled }
        guard let newPassword, !newPassword.isEmpty else { throw AuthFailure.missingParameter(.newPassword) }
        if let violation = policy.violation(of: newPassword, username: record.email) {
            throw AuthFailure.passwordPolicy(violation)
        }
        let hash = try hasher.hash(newPassword, for: context.hashingSource)
        let now = clock.now()
        try store.write { tx in
            let current = try take(tx, record, tenant: tenant)
            var account = try Self.boundAccount(tx, current)
            guard !account.disabled else { throw AuthFailure.userDisabled }
            account.passwordHash = hash
            account.emailVerified = true
            account.validSince = now
            try tx.update(account)
            try tx.clearSignInFailures(userID: account.id)
            try tx.revokeFamilies(userID: account.id, at: now)
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: .passwordReset, userID: account.id, clientID: context.client.id,
                    remoteAddress: context.remoteAddress, detail: "method=oob_code"))
        }
        return record.email
    }

    /// Applies a ``OobCodeKind/verifyEmail`` code (the address is verified) or a
    /// ``OobCodeKind/verifyAndChangeEmail`` code (the new address becomes the account's, verified),
    /// and uses it up.
    /// - Returns: the account as changed.
    /// - Throws: as ``check(_:code:kinds:)``, and ``AuthFailure/userAlreadyExists`` (the new
    ///   address was taken since), ``AuthFailure/userDisabled``.
    public func apply(_ context: ClientContext, code: String?) throws -> User {
        let tenant = context.tenant
        let record = try store.read {
            try valid($0, code: code, tenant: tenant, kinds: [.verifyEmail, .verifyAndChangeEmail])
        }
        let now = clock.now()
        return try store.write { tx in
            let current = try take(tx, record, tenant: tenant)
            var account = try Self.boundAccount(tx, current)
            guard !account.disabled else { throw AuthFailure.userDisabled }
            if current.kind == .verifyAndChangeEmail, let newEmail = current.newEmail {
                account.email = newEmail
                if AccountProfile.isAnonymous(account) || AccountProfile.isCustom(account) {
                    account.attributes[AccountProfile.providerAttribute] = nil
                }
            }
            account.emailVerified = true
            do {
                try tx.update(account)
            } catch StoreError.conflict {
                throw AuthFailure.userAlreadyExists
            }
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: current.kind == .verifyEmail ? .emailVerified : .emailChanged,
                    userID: account.id, clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: "method=oob_code"))
            return account
        }
    }

    /// Signs in with an ``OobCodeKind/emailSignIn`` code sent to `email` (e-mail link sign-in) and
    /// uses it up. The account of the address is signed in, or created (verified, without a
    /// password) when there is none; with `idToken`, the address is linked to the account the token
    /// names instead (an anonymous account becomes an e-mail account). The ID token's
    /// `sign_in_provider` is `password`, as for every e-mail sign-in.
    /// - Returns: the session, and whether the account is new.
    /// - Throws: as ``check(_:code:kinds:)``, missing or invalid `.email`,
    ///   ``AuthFailure/codeAddressMismatch``, ``AuthFailure/userDisabled``,
    ///   ``AuthFailure/userAlreadyExists`` (linking an address another account has),
    ///   ``AuthFailure/operationNotAllowed`` (the tenant asks for a second factor), and the failures
    ///   of ``AccountService/authenticate(_:idToken:)``.
    public func signIn(_ context: ClientContext, email: String?, code: String?, idToken: String?) throws
        -> (session: AccountSession, isNew: Bool)
    {
        let tenant = context.tenant
        let linking = try idToken.map { try accounts.authenticate(context, idToken: $0).user }
        let address = try Self.address(email, parameter: .email)
        let record = try store.read { try valid($0, code: code, tenant: tenant, kinds: [.emailSignIn]) }
        guard ConstantTime.equals(Array(record.email.utf8), Array(address.utf8)) else {
            throw AuthFailure.codeAddressMismatch
        }
        try AccountService.refuseSecondFactor(context)
        let now = clock.now()
        let (user, isNew, session) = try store.write { tx -> (User, Bool, TokenService.NewSession) in
            _ = try take(tx, record, tenant: tenant)
            var isNew = false
            var user: User
            if let linking {
                guard var current = try tx.user(id: linking.id, tenantID: tenant.id) else {
                    throw AuthFailure.userNotFound
                }
                guard !current.disabled else { throw AuthFailure.userDisabled }
                current.email = address
                current.attributes[AccountProfile.providerAttribute] = nil
                user = current
            } else if let existing = try Self.account(tx, email: address, tenantID: tenant.id) {
                guard !existing.disabled else { throw AuthFailure.userDisabled }
                user = existing
            } else {
                user = User(
                    id: UUID().uuidString.lowercased(), tenantID: tenant.id, email: address, emailVerified: true,
                    passwordHash: nil, displayName: nil, attributes: [:], createdAt: now, validSince: now)
                isNew = true
            }
            user.emailVerified = true
            user.attributes[AccountProfile.emailLinkAttribute] = "true"
            do {
                if isNew { try tx.insert(user) } else { try tx.update(user) }
            } catch StoreError.conflict {
                throw AuthFailure.userAlreadyExists
            }
            try tx.clearSignInFailures(userID: user.id)
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: isNew ? .signUp : .signInSucceeded, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: isNew ? "method=email_link" : "amr=otp"))
            let session = try tokens.startSession(
                tx, context: context, user: user, scopes: AccountService.sessionScopes, amr: ["otp"], authTime: now)
            return (user, isNew, session)
        }
        let issued = try accounts.issue(
            context, user: user, authTime: now, refreshToken: session.refreshToken,
            provider: AccountProfile.passwordProvider)
        return (issued, isNew)
    }

    // MARK: - Internals

    /// Who a code is for while it is being made.
    private struct Target {
        var user: User?
        var email: String
        var newEmail: String?
        var recipient: String
    }

    /// Stores a fresh code for `target` and, with `deliver`, commits its message, in `tx`.
    private func mint(
        _ tx: any StoreWriting, context: ClientContext, kind: OobCodeKind, target: Target, continueURL: String?,
        deliver: Bool
    ) throws -> IssuedOobCode {
        let code = SecureRandom.token(byteCount: 32)
        let now = clock.now()
        try tx.insert(
            OobCode(
                codeHash: Digest.sha256Hex(code), tenantID: context.tenant.id, clientID: context.client.id, kind: kind,
                userID: target.user?.id, email: target.email, newEmail: target.newEmail, continueURL: continueURL,
                createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime)))
        let link = OobLink.link(
            origin: tokens.origin, kind: kind, code: code, apiKey: context.client.apiKey, continueURL: continueURL)
        if deliver {
            let message = OutboxMessage(
                tenantID: context.tenant.id, recipient: target.recipient, subject: Self.subject(kind),
                body: Self.body(kind, link: link), code: code, createdAt: now,
                kind: MessageKind(rawValue: Self.purpose(kind)), link: link, validMinutes: Int(Self.lifetime / 60))
            try tx.insert(try sealer.seal(message))
        }
        return IssuedOobCode(code: code, link: link, recipient: target.recipient, kind: kind)
    }

    /// The stored code `code` names, valid in `tenant` for one of `kinds`.
    private func valid(_ reader: any StoreReading, code: String?, tenant: Tenant, kinds: Set<OobCodeKind>) throws
        -> OobCode
    {
        guard let code, !code.isEmpty else { throw AuthFailure.missingParameter(.oneTimeCode) }
        guard code.utf8.count <= 128, let record = try reader.oobCode(hash: Digest.sha256Hex(code)),
            record.tenantID == tenant.id, kinds.contains(record.kind)
        else { throw AuthFailure.invalidCode }
        guard record.expiresAt > clock.now() else { throw AuthFailure.codeExpired }
        return record
    }

    /// Uses `record` up in `tx`; throws ``AuthFailure/invalidCode`` when another request did first.
    private func take(_ tx: any StoreWriting, _ record: OobCode, tenant: Tenant) throws -> OobCode {
        guard let taken = try tx.consumeOobCode(hash: record.codeHash), taken.tenantID == tenant.id else {
            throw AuthFailure.invalidCode
        }
        return taken
    }

    /// The account a code is bound to, still at the address the code was issued for.
    private static func boundAccount(_ reader: any StoreReading, _ record: OobCode) throws -> User {
        guard let userID = record.userID, let user = try reader.user(id: userID, tenantID: record.tenantID),
            user.email == record.email
        else { throw AuthFailure.invalidCode }
        return user
    }

    /// The account whose address is `email`; placeholder addresses (anonymous and custom-token
    /// accounts) name none.
    private static func account(_ reader: any StoreReading, email: String, tenantID: String) throws -> User? {
        guard let user = try reader.user(email: email, tenantID: tenantID), AccountProfile.email(of: user) != nil else {
            return nil
        }
        return user
    }

    /// `value` normalized, or the failure naming `parameter`. Addresses in the reserved `.invalid`
    /// domain (RFC 2606 § 2), which hold the placeholders of address-less accounts, are refused.
    private static func address(_ value: String?, parameter: AuthParameter) throws -> String {
        guard let value, !value.isEmpty else { throw AuthFailure.missingParameter(parameter) }
        let normalized = User.normalizeEmail(value)
        guard User.isPlausibleEmail(normalized), !normalized.hasSuffix(".invalid") else {
            throw AuthFailure.invalidParameter(parameter)
        }
        return normalized
    }

    /// `continueUrl`, when given: an absolute `http` or `https` URL with a host.
    static func validContinueURL(_ value: String?) throws -> String? {
        guard let value, !value.isEmpty else { return nil }
        guard value.utf8.count <= maximumContinueURLLength, let url = URLComponents(string: value),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else { throw AuthFailure.invalidParameter(.continueURL) }
        return value
    }

    /// Refuses a send once ``TenantSettings/codeSendsPerAddressPerWindow`` codes of this kind went
    /// to `recipient` within ``TenantSettings/codeSendWindowSeconds`` (e-mail bombing protection,
    /// whatever the source).
    private func checkAddressLimit(_ tx: any StoreWriting, tenant: Tenant, recipient: String, kind: OobCodeKind) throws {
        let limit = max(1, tenant.settings.codeSendsPerAddressPerWindow)
        let window = TimeInterval(max(1, tenant.settings.codeSendWindowSeconds))
        let now = clock.now()
        let sends = try tx.codeSendTimes(
            tenantID: tenant.id, recipient: recipient, purpose: Self.purpose(kind), source: nil, since: now - window,
            limit: limit)
        if sends.count >= limit {
            throw AuthFailure.tooManyAttempts(retryAfter: FlowEngine.seconds(from: now, until: (sends.min() ?? now) + window))
        }
    }

    /// The send ledger's purpose for codes of `kind`.
    static func purpose(_ kind: OobCodeKind) -> String { "oob_" + kind.rawValue }

    /// The subject line of a message carrying a code of `kind`.
    static func subject(_ kind: OobCodeKind) -> String {
        switch kind {
        case .verifyEmail: "Verify your e-mail address"
        case .passwordReset: "Reset your password"
        case .verifyAndChangeEmail: "Confirm your new e-mail address"
        case .emailSignIn: "Your sign-in link"
        }
    }

    /// The text body of a message carrying `link`.
    static func body(_ kind: OobCodeKind, link: String) -> String {
        let sentence =
            switch kind {
            case .verifyEmail: "Open this link to verify your e-mail address:"
            case .passwordReset: "Open this link to choose a new password:"
            case .verifyAndChangeEmail: "Open this link to make this your account's e-mail address:"
            case .emailSignIn: "Open this link on the device where you asked to sign in:"
            }
        let minutes = Int(lifetime / 60)
        return "\(sentence)\n\n\(link)\n\nThe link works once and expires in \(minutes) minutes. "
            + "If you did not ask for it, ignore this message."
    }
}

extension AuditEvent.Kind {
    /// An account's address was verified with an out-of-band code.
    public static let emailVerified = AuditEvent.Kind(rawValue: "email_verified")
    /// An account's address was changed with an out-of-band code sent to the new address.
    public static let emailChanged = AuditEvent.Kind(rawValue: "email_changed")
}
