/// A client's network address as the rate limits count it: an IPv4 address on its own, an IPv6
/// address by its /64 prefix (one subscriber is routinely given a whole /64, RFC 6177 § 2, so
/// counting single IPv6 addresses would let one client rotate through 2^64 of them). IPv4-mapped
/// IPv6 addresses count as their IPv4 address.
public enum SourceAddress {
    /// The key of `address` (textual IPv4 or IPv6, as the socket layer reports it); anything that
    /// does not parse is its own key.
    public static func key(_ address: String) -> String {
        guard let bytes = IPAddress.bytes(of: address) else { return address }
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
