/// An ordered list of HTTP header fields with case-insensitive name lookup.
///
/// Field names are compared ASCII case-insensitively, as RFC 9110 §5.1 requires; the order in which
/// fields were added is kept, and a name may occur more than once (RFC 9110 §5.3).
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Content-Type", "application/json")
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field: its name as sent or added, and its value.
    public typealias Element = (name: String, value: String)

    @usableFromInline
    var fields: [Element]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from `(name, value)` pairs, keeping their order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Creates a header list from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting repeated names separately.
    public var count: Int { fields.count }

    /// Whether the list has no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (case-insensitive), or `nil`.
    public subscript(name: String) -> String? {
        for field in fields where Self.namesMatch(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` (case-insensitive) with a single field, or appends it.
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[index] = (name: name, value: value)
            var next = index + 1
            while next < fields.count {
                if Self.namesMatch(fields[next].name, name) {
                    fields.remove(at: next)
                } else {
                    next += 1
                }
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison of two field names, without allocating.
    @inlinable
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case let (a?, b?):
                if a != b && asciiLowercase(a) != asciiLowercase(b) { return false }
            default:
                return false
            }
        }
    }

    @inlinable
    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
