import Foundation

/// Phone numbers in E.164 form (ITU-T E.164 § 6): `+`, a country code and the national number,
/// at most 15 digits in all, the first of them not 0.
enum PhoneNumber {
    /// The E.164 form of `input`, or `nil` when it is not an international number. Spaces, dots,
    /// hyphens and parentheses between digits are dropped (`+1 (415) 555-0123` → `+14155550123`);
    /// a number without its leading `+` and country code is refused rather than guessed.
    static func normalize(_ input: String) -> String? {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        guard trimmed.first == "+", trimmed.utf8.count <= 32 else { return nil }
        var digits = ""
        for character in trimmed.dropFirst() {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if !" .-()".contains(character) {
                return nil
            }
        }
        guard (8...15).contains(digits.count), digits.first != "0" else { return nil }
        return "+" + digits
    }

    /// `+14155550123` → `+1******0123`: the first digit and the last four, for a masked login hint.
    static func mask(_ number: String) -> String {
        let digits = Array(number.dropFirst())
        guard digits.count > 5 else { return "+***" }
        return "+" + String(digits.prefix(1)) + String(repeating: "*", count: digits.count - 5)
            + String(digits.suffix(4))
    }
}
