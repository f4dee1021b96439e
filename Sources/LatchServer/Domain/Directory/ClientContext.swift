/// Who is asking: the resolved tenant and client of a request, and the peer address for audit.
public struct ClientContext: Sendable {
    /// The tenant named in the path.
    public var tenant: Tenant
    /// The client named by `client_id`.
    public var client: Client
    /// The peer address.
    public var remoteAddress: String
    /// The hosted pages' browser cookie: when set, a sign-in that succeeds starts a
    /// ``BrowserSession`` for this browser instead of issuing tokens to the client (the
    /// authorization endpoint then issues a code).
    public var browserCookie: String?

    /// Creates a context.
    public init(tenant: Tenant, client: Client, remoteAddress: String) {
        self.tenant = tenant
        self.client = client
        self.remoteAddress = remoteAddress
    }
}

extension ClientContext {
    /// The source the password hasher queues this request's work under: the peer address.
    public var hashingSource: HashingSource { HashingSource(address: remoteAddress) }
}
