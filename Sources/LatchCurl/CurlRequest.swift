import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLRequest` checked and reduced to what a transfer needs, so the transfer thread gets only
/// Sendable values and every refusal happens before a connection is opened.
struct CurlRequest: Sendable {
    let url: URL
    /// The method, upper-cased; `GET` when the request names none.
    let method: String
    /// `Name: value` lines for CURLOPT_HTTPHEADER (an empty value is written `Name;`, which
    /// libcurl sends as an empty field; CURLOPT_HTTPHEADER(3)).
    let headerLines: [String]
    /// The body, or `nil` for none.
    let body: Data?
    /// The whole request's time limit in milliseconds.
    let timeoutMilliseconds: Int

    /// - Throws: `URLError(.unsupportedURL)` for a URL that is not `http` or `https` or has no host,
    ///   `URLError(.badURL)` for a header that would break the header block, and
    ///   `URLError(.unsupportedURL)` for a body stream (only `httpBody` is sent).
    init(_ request: URLRequest, timeout: TimeInterval) throws(URLError) {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw CurlFailure.error(.unsupportedURL, "Only http and https URLs with a host can be requested", url: request.url)
        }
        guard request.httpBodyStream == nil || request.httpBody != nil else {
            throw CurlFailure.error(.unsupportedURL, "A request body stream is not supported; set httpBody", url: url)
        }
        let method = (request.httpMethod ?? "GET").uppercased()
        guard !method.isEmpty, method.allSatisfy(Self.isTokenCharacter) else {
            throw CurlFailure.error(.badURL, "The HTTP method is not a valid token (RFC 9110 § 9.1)", url: url)
        }
        var lines: [String] = []
        var names: Set<String> = []
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                throw CurlFailure.error(.badURL, "A header field name is not a valid token (RFC 9110 § 5.1)", url: url)
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw CurlFailure.error(.badURL, "The value of header field \(name) contains a line break", url: url)
            }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            lines.append(trimmed.isEmpty ? "\(name);" : "\(name): \(trimmed)")
            names.insert(name.lowercased())
        }
        let body = request.httpBody ?? (["POST", "PUT", "PATCH"].contains(method) ? Data() : nil)
        // libcurl would add `Expect: 100-continue` to larger bodies and wait for the interim
        // answer; URLSession never does, and servers need not send one.
        if body != nil, !names.contains("expect") { lines.append("Expect:") }
        self.url = url
        self.method = method
        self.headerLines = lines
        self.body = body
        let limit = request.timeoutInterval > 0 ? min(request.timeoutInterval, timeout) : timeout
        timeoutMilliseconds = max(1, Int((limit * 1000).rounded(.up).clamped(to: 1...Double(Int32.max))))
    }

    /// `tchar` of RFC 9110 § 5.6.2.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
