/// An out-of-band code as ``OobCodeService/issue(_:kind:email:newEmail:continueURL:deliver:)``
/// made it: the code in the clear (it is stored only as a hash) and the action link that carries it
/// (`reference/firebase-auth-protocol.md` § 7, the `oobLink` format).
public struct IssuedOobCode: Sendable, Equatable {
    /// The random code (`oobCode`), URL-safe.
    public var code: String
    /// The link to the hosted action page: `{base}/emulator/action?mode=…&lang=en&oobCode=…&apiKey=…`,
    /// with `continueUrl` when one was given.
    public var link: String
    /// Where the message goes (or would go): the account's address, the new address for an address
    /// change, or the sign-in address.
    public var recipient: String
    /// What the code does.
    public var kind: OobCodeKind
}

/// What a valid out-of-band code is for, as ``OobCodeService/check(_:code:kinds:)`` reads it
/// without using it up.
public struct OobCodeInfo: Sendable, Equatable {
    /// What applying it does.
    public var kind: OobCodeKind
    /// The address it was issued for.
    public var email: String
    /// The new address of an address change.
    public var newEmail: String?
    /// The `continueUrl` given when it was issued.
    public var continueURL: String?
}
