import Foundation

/// Device authorizations of the device authorization grant (``DeviceAuthorization``, RFC 8628),
/// kept as hashes of their device and user codes.
public protocol DeviceAuthorizationReading {
    /// The authorization whose device code hashes to `deviceCodeHash`, expired or not.
    func deviceAuthorization(deviceCodeHash: String) throws -> DeviceAuthorization?
    /// The authorization of `tenantID` whose user code hashes to `userCodeHash`, expired or not.
    func deviceAuthorization(userCodeHash: String, tenantID: String) throws -> DeviceAuthorization?
}

/// Changes to device authorizations. Deciding and consuming are conditional statements that report
/// whether they applied, so of two concurrent decisions (or polls) exactly one wins.
public protocol DeviceAuthorizationWriting: DeviceAuthorizationReading {
    /// Adds an authorization; ``StoreError/conflict`` if its device code hash, or its user code
    /// hash in its tenant, is taken.
    func insert(_ authorization: DeviceAuthorization) throws
    /// Applies `decision` to the authorization of `tenantID` whose user code hashes to
    /// `userCodeHash`, only while it is pending and expires after `date`; `false` when nothing
    /// was changed.
    func decideDeviceAuthorization(
        userCodeHash: String, tenantID: String, decision: DeviceAuthorization.Decision, at date: Date
    ) throws -> Bool
    /// Records a poll at `date` and sets the polling interval to `interval` seconds.
    func recordDevicePoll(deviceCodeHash: String, at date: Date, interval: Int) throws
    /// Deletes the authorization whose device code hashes to `deviceCodeHash` when it is approved,
    /// and returns it; `nil` when it is not approved or another request consumed it first.
    func consumeApprovedDeviceAuthorization(deviceCodeHash: String) throws -> DeviceAuthorization?
}
