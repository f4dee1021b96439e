import Foundation
import LatchCrypto
import LatchWire

extension DeviceAuthorizationService {
    /// What a poll found, decided in a relaxed write that records the poll.
    private enum PollState {
        case failed(AuthFailure)
        case approved
    }

    /// The token request of the grant (RFC 8628 § 3.4–3.5) by the authenticated client: tokens
    /// once the user approved, consuming the authorization, so a second poll fails.
    ///
    /// A poll sooner than the interval after the previous one answers `slow_down` and adds
    /// ``slowDownStep`` seconds to the interval. The tokens start a session like any sign-in:
    /// `auth_time` and `amr` from the approval, a refresh token with `offline_access`.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` without a device code; as
    ///   ``AuthFailure/deviceAuthorization(_:)``: ``DeviceFlowFailure/authorizationPending``,
    ///   ``DeviceFlowFailure/slowDown(interval:)``, ``DeviceFlowFailure/expired``,
    ///   ``DeviceFlowFailure/denied``, and ``DeviceFlowFailure/invalidDeviceCode`` for a code that is
    ///   malformed, unknown, used, or another client's or tenant's; ``AuthFailure/userDisabled`` and
    ///   ``AuthFailure/sessionExpired`` when the approving account was disabled or its sessions
    ///   revoked since; ``AuthFailure/tooManyAttempts(retryAfter:)``.
    public func poll(context: ClientContext, deviceCode: String?) throws -> IssuedTokens {
        guard let deviceCode, !deviceCode.isEmpty else { throw AuthFailure.missingParameter(.deviceCode) }
        guard mayUse(client: context.client) else {
            throw AuthFailure.unauthorizedClient("the client may not use the device authorization grant")
        }
        try limiter.admit(.tokenRequests, context)
        // A device code is 43 base64url characters (32 bytes); anything else matches nothing.
        guard deviceCode.utf8.count == 43, Base64URL.decode(deviceCode)?.count == 32 else {
            throw AuthFailure.deviceAuthorization(.invalidDeviceCode)
        }
        let hash = Digest.sha256Hex(deviceCode)
        let now = clock.now()
        let state: PollState = try store.writeRelaxed { tx in
            guard let found = try tx.deviceAuthorization(deviceCodeHash: hash), found.tenantID == context.tenant.id,
                found.clientID == context.client.id
            else { return .failed(.deviceAuthorization(.invalidDeviceCode)) }
            guard found.expiresAt > now else { return .failed(.deviceAuthorization(.expired)) }
            switch found.status {
            case .denied:
                return .failed(.deviceAuthorization(.denied))
            case .approved:
                return .approved
            case .pending:
                if let last = found.lastPolledAt, now.timeIntervalSince(last) < TimeInterval(found.interval) {
                    let slower = found.interval + Self.slowDownStep
                    try tx.recordDevicePoll(deviceCodeHash: hash, at: now, interval: slower)
                    return .failed(.deviceAuthorization(.slowDown(interval: slower)))
                }
                try tx.recordDevicePoll(deviceCodeHash: hash, at: now, interval: found.interval)
                return .failed(.deviceAuthorization(.authorizationPending))
            }
        }
        if case .failed(let failure) = state { throw failure }
        return try redeem(context: context, hash: hash)
    }

    /// Consumes the approved authorization and starts its session, in one durable write; signs the
    /// tokens after the commit.
    private func redeem(context: ClientContext, hash: String) throws -> IssuedTokens {
        enum Outcome {
            case session(TokenService.NewSession, User, ScopeSet)
            case failed(AuthFailure)
        }
        let outcome: Outcome = try store.write { tx in
            // Of two concurrent polls of one approval, one deletes it; the other finds nothing.
            guard let approved = try tx.consumeApprovedDeviceAuthorization(deviceCodeHash: hash),
                let userID = approved.userID, let authTime = approved.authTime
            else { return .failed(.deviceAuthorization(.invalidDeviceCode)) }
            guard let user = try tx.user(id: userID, tenantID: context.tenant.id) else {
                return .failed(.deviceAuthorization(.invalidDeviceCode))
            }
            guard !user.disabled else { return .failed(.userDisabled) }
            guard user.validSince <= authTime else { return .failed(.sessionExpired) }
            let scopes = ScopeSet(stored: approved.scopes)
            let session = try tokens.startSession(
                tx, context: context, user: user, scopes: scopes, amr: approved.amr, authTime: authTime)
            try tx.insert(
                AuditEvent(
                    tenantID: context.tenant.id, at: clock.now(), kind: .signInSucceeded, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: "amr=\(approved.amr.joined(separator: ",")) grant=device_code"))
            return .session(session, user, scopes)
        }
        switch outcome {
        case .failed(let failure):
            throw failure
        case .session(let session, let user, let scopes):
            return try tokens.issue(
                context: context, user: user, family: session.family, scopes: scopes, refreshToken: session.refreshToken)
        }
    }
}
