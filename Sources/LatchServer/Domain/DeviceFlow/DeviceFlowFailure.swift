/// How a device authorization grant request fails (RFC 8628 § 3.5), carried by
/// ``AuthFailure/deviceAuthorization(_:)``.
public enum DeviceFlowFailure: Sendable, Equatable {
    /// The user has not decided yet: poll again after the interval (`authorization_pending`).
    case authorizationPending
    /// The device polled sooner than the interval, which is now `interval` seconds (`slow_down`).
    case slowDown(interval: Int)
    /// The device code expired (`expired_token`).
    case expired
    /// The user denied the request (`access_denied`).
    case denied
    /// The device code is unknown, malformed, already used, or belongs to another client or
    /// tenant (`invalid_grant`, RFC 6749 § 5.2).
    case invalidDeviceCode
    /// The user code is unknown, expired, or already approved or denied (the verification page).
    case invalidUserCode
}
