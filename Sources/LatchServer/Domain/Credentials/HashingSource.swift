import Foundation

/// On whose behalf a password is hashed or verified, so the hasher can share its cores fairly
/// between sources (see ``PasswordHasher``): one client address is one source, and an IPv6 client
/// is known by its /64 prefix, since one subscriber is routinely given a whole /64 (RFC 6177) and
/// can send from any address in it.
public struct HashingSource: Sendable, Hashable, CustomStringConvertible {
    /// The key sources are told apart by: an IPv4 address, an IPv6 /64 prefix (`2001:db8:0:1::/64`),
    /// another peer string as given, or `administration`.
    public let key: String

    /// The source of a request from the peer address `address` (`203.0.113.7`, `2001:db8::1`); an
    /// IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) is the IPv4 client it stands for.
    public init(address: String) {
        key = Self.key(forAddress: address)
    }

    private init(key: String) {
        self.key = key
    }

    /// Work an administrator asked for, not a client.
    public static let administration = HashingSource(key: "administration")

    /// The ``key``.
    public var description: String { key }

    /// The key of a peer address: IPv6 addresses by their /64, anything unparsable as given.
    static func key(forAddress address: String) -> String {
        guard address.contains(":"), let groups = ipv6Groups(address) else { return address }
        if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xffff {
            return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].map(String.init)
                .joined(separator: ".")
        }
        return groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text form (RFC 4291 § 2.2: `::` elision and a
    /// trailing dotted IPv4 part), ignoring a zone (`%eth0`, RFC 4007 § 11); `nil` if malformed.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let halves = address.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String, last: Bool) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var groups: [UInt16] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if last && index == fields.count - 1 && field.contains(".") {
                    let octets = field.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard octets.count == 4, field.split(separator: ".").count == 4 else { return nil }
                    groups += [UInt16(octets[0]) << 8 | UInt16(octets[1]), UInt16(octets[2]) << 8 | UInt16(octets[3])]
                } else {
                    guard (1...4).contains(field.count), let group = UInt16(field, radix: 16) else { return nil }
                    groups.append(group)
                }
            }
            return groups
        }
        if halves.count == 1 {
            guard let groups = parse(halves[0], last: true), groups.count == 8 else { return nil }
            return groups
        }
        guard let head = parse(halves[0], last: false), let tail = parse(halves[1], last: true),
            head.count + tail.count <= 7
        else { return nil }
        return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
