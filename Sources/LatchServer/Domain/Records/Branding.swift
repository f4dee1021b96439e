/// How a tenant's hosted pages present it: a display name, an accent colour and a logo.
public struct Branding: Codable, Sendable, Equatable {
    /// The name shown in page titles and headings; the tenant's name when `nil`.
    public var displayName: String?
    /// The accent colour of buttons and links, `#rrggbb`; anything else falls back to the default.
    public var color: String?
    /// An `https` URL of a logo image shown above each page's heading.
    public var logoURL: String?

    /// No branding: the tenant's name and the default colour.
    public init(displayName: String? = nil, color: String? = nil, logoURL: String? = nil) {
        self.displayName = displayName
        self.color = color
        self.logoURL = logoURL
    }

    /// The colour when it is exactly `#` and six hexadecimal digits, else `nil`: only such a value
    /// reaches a style sheet.
    public var validColor: String? {
        guard let color, color.utf8.count == 7, color.hasPrefix("#"),
            color.utf8.dropFirst().allSatisfy({ $0.isHexDigit })
        else { return nil }
        return color.lowercased()
    }

    /// The logo URL when it is an absolute `https` URL without quotes or spaces, else `nil`.
    public var validLogoURL: String? {
        guard let logoURL, logoURL.hasPrefix("https://"), logoURL.utf8.count <= 2048,
            !logoURL.contains(where: { $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0.isWhitespace })
        else { return nil }
        return logoURL
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }
}
