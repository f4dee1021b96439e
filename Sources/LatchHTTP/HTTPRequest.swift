/// A complete HTTP request as the server received it (RFC 9112 §3): method, target, header fields
/// and the whole body, plus what the server and ``Router`` learned about it.
public struct HTTPRequest: Sendable {
    /// The method token, uppercase, e.g. `"GET"` (RFC 9110 §9).
    public var method: String
    /// The path of the request target, percent-decoded (RFC 3986 §2.1), without the query.
    /// Malformed escapes are kept literally and invalid UTF-8 becomes U+FFFD; it never traps.
    public var path: String
    /// Query parameters, decoded like a form (`+` is a space). Lenient: for repeated names the first
    /// wins. Use ``queryParameters()`` when repeats must be rejected.
    public var query: [String: String]
    /// The raw query string after `?`, undecoded; empty when there was none.
    public var queryString: String
    /// The request header fields, in the order received.
    public var headers: HTTPHeaders
    /// The request body (after any chunked transfer coding was removed, RFC 9112 §7.1).
    public var body: [UInt8]
    /// The client's IP address (`"127.0.0.1"`, `"::1"`), or `""` if unknown: the socket peer, or,
    /// when the peer is a trusted proxy, the client address it forwarded.
    public var remoteAddress: String
    /// The socket peer's IP address, whatever ``remoteAddress`` was resolved to.
    public var peerAddress: String
    /// The server-generated id of this request, echoed as `x-request-id`.
    public var requestID: String
    /// The client's `client-request-id` header (the MSAL correlation header), if it was present and
    /// a UUID (RFC 9562 text form). Otherwise `nil`.
    public var clientRequestID: String?
    /// The correlation id of this request: the client's ``clientRequestID``, or a UUID the server
    /// made when the client sent none or something else. Every response echoes it as
    /// `client-request-id`, since MSAL reads that header as a UUID.
    public var correlationID: String
    /// Values of the `{name}` segments of the matched route, filled by ``Router``.
    public var pathParameters: [String: String]
    /// The pattern of the matched route, e.g. `"/{tenant}/oauth2/v2.0/token"`, filled by ``Router``;
    /// use it, not ``path``, as a metrics label.
    public var routePattern: String?

    /// Creates a request; the server uses this too. `clientRequestID` is derived from `headers`,
    /// and `correlationID` from it unless given.
    public init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], remoteAddress: String = "", requestID: String = HTTPRequest.makeRequestID(),
        correlationID: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.queryString = ""
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.peerAddress = remoteAddress
        self.requestID = requestID
        let clientRequestID = Self.saneClientRequestID(headers["client-request-id"])
        self.clientRequestID = clientRequestID
        self.correlationID = correlationID ?? clientRequestID ?? RequestIDGenerator.shared.nextUUID()
        self.pathParameters = [:]
        self.routePattern = nil
    }

    /// A fresh request id: 16 lowercase hex characters, unique within this process.
    public static func makeRequestID() -> String {
        RequestIDGenerator.shared.next()
    }

    /// Creates a request from a raw request target (origin-form or absolute-form, RFC 9112 §3.2),
    /// splitting and decoding path and query.
    init(
        method: String, target: String, headers: HTTPHeaders, body: [UInt8], remoteAddress: String, requestID: String,
        correlationID: String
    ) {
        let (path, rawQuery) = Self.splitTarget(target)
        self.init(
            method: method, path: PercentEncoding.decodeLossy(path, plusAsSpace: false),
            query: [:], headers: headers, body: body, remoteAddress: remoteAddress, requestID: requestID,
            correlationID: correlationID)
        if let rawQuery, !rawQuery.isEmpty {
            queryString = String(rawQuery)
            query = (try? FormURLEncoding.parse(ArraySlice(rawQuery.utf8), strict: false, what: "query parameter")) ?? [:]
        }
    }

    /// Creates a request from a raw request target such as `/default/oauth2/v2.0/token?x=1`, split
    /// and decoded as the server does; for answering requests without a socket (in-process tests).
    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        let requestID = HTTPRequest.makeRequestID()
        self.init(
            method: method, target: target, headers: headers, body: body, remoteAddress: remoteAddress,
            requestID: requestID,
            correlationID: Self.saneClientRequestID(headers["client-request-id"]) ?? RequestIDGenerator.shared.nextUUID())
    }

    /// The query parameters, strictly: malformed percent-encoding, invalid UTF-8 or a repeated name
    /// throw ``HTTPError/badRequest(_:)`` (RFC 6749 §3.1 forbids repeated parameters).
    public func queryParameters() throws(HTTPError) -> [String: String] {
        try FormURLEncoding.parse(ArraySlice(queryString.utf8), strict: true, what: "query parameter")
    }

    /// The media type of the body (the `Content-Type` value before any `;`), lowercased and trimmed,
    /// or `nil` without a `Content-Type` header (RFC 9110 §8.3.1).
    public var mediaType: String? {
        guard let value = headers["content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(type.trimmingASCIISpaces()).lowercased()
    }

    /// The `charset` parameter of `Content-Type`, lowercased, if present.
    var mediaTypeCharset: String? {
        guard let value = headers["content-type"] else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingASCIISpaces().lowercased() == "charset" else { continue }
            var charset = parts[1].trimmingASCIISpaces()
            if charset.hasPrefix("\"") && charset.hasSuffix("\"") && charset.count >= 2 {
                charset = charset.dropFirst().dropLast()
            }
            return charset.lowercased()
        }
        return nil
    }

    static func splitTarget(_ target: String) -> (path: Substring, query: Substring?) {
        var rest = target[...]
        // absolute-form (RFC 9112 §3.2.2): drop "scheme://authority".
        if rest.utf8.first != UInt8(ascii: "/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let authority = rest[rest.index(colon, offsetBy: 3)...]
            switch authority.firstIndex(where: { $0 == "/" || $0 == "?" }) {
            case let end? where authority[end] == "/": rest = authority[end...]
            case let end?: return ("/", authority[authority.index(after: end)...])
            case nil: rest = "/"
            }
        }
        // Searching the UTF-8 view avoids Character (grapheme) work on the hot path.
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return (rest[..<mark], rest[rest.utf8.index(after: mark)...])
        }
        return (rest, nil)
    }

    /// `value` if it is a UUID in its 36-character text form (hex digits of either case, dashes at
    /// 8, 13, 18 and 23), else `nil`.
    static func saneClientRequestID(_ value: String?) -> String? {
        guard let value else { return nil }
        let utf8 = value.utf8
        guard utf8.count == 36 else { return nil }
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                let isHex =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
                guard isHex else { return nil }
            }
        }
        return value
    }
}
