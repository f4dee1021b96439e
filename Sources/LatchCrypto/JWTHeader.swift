/// The JOSE header members that JWS verification looks at (RFC 7515 § 4.1).
struct JWTHeader: Decodable {
    /// Algorithm (RFC 7515 § 4.1.1).
    var alg: String?
    /// Key ID (RFC 7515 § 4.1.4).
    var kid: String?
    /// Critical extensions (RFC 7515 § 4.1.11); Latch understands none, so its presence is fatal.
    var crit: [String]?
    /// Media type (RFC 7515 § 4.1.9); not checked here.
    var typ: String?
}
