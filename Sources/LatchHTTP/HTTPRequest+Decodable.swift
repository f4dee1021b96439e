import Foundation

extension HTTPRequest {
    /// The JSON body decoded as `T` with a default `JSONDecoder`.
    ///
    /// - Throws: ``HTTPError/badRequest(_:)`` when `Content-Type` is not JSON (as for ``jsonObject()``)
    ///   or the body does not decode; the message names the failing key path but never echoes values.
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self) throws(HTTPError) -> T {
        try requireJSONContentType()
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .badRequest("missing member '\(Self.keyPath(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .badRequest("member '\(Self.keyPath(context.codingPath))' has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .badRequest("member '\(Self.keyPath(context.codingPath))' must not be null")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .badRequest("member '\(Self.keyPath(context.codingPath))' is invalid")
        } catch {
            throw .badRequest("request body is not valid JSON")
        }
    }

    private static func keyPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
