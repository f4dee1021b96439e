/// A QR code (ISO/IEC 18004) of a short text, drawn with Unicode half blocks for a terminal: byte
/// mode, error correction level L, versions 1 to 9 (up to 230 bytes), the mask with the lowest
/// penalty. `latch signin --device` shows the verification page with the code filled in
/// (RFC 8628 § 3.3.1, `verification_uri_complete`) as one, so a phone camera opens it.
enum TerminalQRCode {
    /// Data and error-correction codewords per block, and blocks, for level L (ISO/IEC 18004 Table 9).
    private static let blocks: [(data: Int, ec: Int, count: Int)] = [
        (19, 7, 1), (34, 10, 1), (55, 15, 1), (80, 20, 1), (108, 26, 1), (68, 18, 2), (78, 20, 2), (97, 24, 2),
        (116, 30, 2),
    ]
    /// Alignment pattern centres per version (Annex E).
    private static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46],
    ]

    /// The code as text: light modules drawn, two module rows per line, with a quiet zone; `nil`
    /// when `text` is too long.
    static func render(_ text: String) -> String? {
        guard let matrix = matrix(for: Array(text.utf8)) else { return nil }
        let quiet = 2
        let size = matrix.count
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            guard r >= 0, c >= 0, r < size, c < size else { return false }
            return matrix[r][c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: size + 2 * quiet, by: 2) {
            var line = ""
            for column in 0..<(size + 2 * quiet) {
                switch (!dark(row, column), !dark(row + 1, column) && row + 1 < size + 2 * quiet) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The modules (`true` = dark), or `nil` when `bytes` does not fit version 9-L. `mask` forces
    /// a mask pattern (tests); the lowest-penalty one otherwise.
    static func matrix(for bytes: [UInt8], mask forced: Int? = nil) -> [[Bool]]? {
        guard let index = blocks.firstIndex(where: { $0.data * $0.count * 8 >= 4 + 8 + bytes.count * 8 }) else { return nil }
        let version = index + 1
        let codewords = codewords(bytes, layout: blocks[index])
        var symbol = Symbol(version: version)
        symbol.drawFunctionPatterns(alignment: alignment[index])
        symbol.drawCodewords(codewords)
        var best: (penalty: Int, modules: [[Bool]])?
        for mask in forced.map({ [$0] }) ?? Array(0..<8) {
            var candidate = symbol
            candidate.apply(mask: mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if best == nil || penalty < best!.penalty { best = (penalty, candidate.modules) }
        }
        return best?.modules
    }

    /// The data codewords (mode, count, bytes, terminator, padding) with their error correction,
    /// interleaved (§ 7.4-7.6).
    private static func codewords(_ bytes: [UInt8], layout: (data: Int, ec: Int, count: Int)) -> [UInt8] {
        let capacity = layout.data * layout.count
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, 8)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < capacity {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let divisor = ReedSolomon.divisor(degree: layout.ec)
        let split = (0..<layout.count).map { Array(data[$0 * layout.data..<($0 + 1) * layout.data]) }
        let corrections = split.map { ReedSolomon.remainder($0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<layout.data { for block in split { result.append(block[index]) } }
        for index in 0..<layout.ec { for block in corrections { result.append(block[index]) } }
        return result
    }

    /// Reed-Solomon over GF(2^8) with the polynomial 0x11D (§ 7.5.2).
    private enum ReedSolomon {
        static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
            var z = 0
            for shift in stride(from: 7, through: 0, by: -1) {
                z = (z << 1) ^ ((z >> 7) * 0x11D)
                z ^= ((Int(y) >> shift) & 1) * Int(x)
            }
            return UInt8(z)
        }

        static func divisor(degree: Int) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: degree)
            result[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for index in 0..<degree {
                    result[index] = multiply(result[index], root)
                    if index + 1 < degree { result[index] ^= result[index + 1] }
                }
                root = multiply(root, 0x02)
            }
            return result
        }

        static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: divisor.count)
            for byte in data {
                let factor = byte ^ result.removeFirst()
                result.append(0)
                for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
            }
            return result
        }
    }

    /// The module grid while it is drawn; `function` marks modules that are not data.
    private struct Symbol {
        let version: Int
        let size: Int
        var modules: [[Bool]]
        var function: [[Bool]]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            modules = Array(repeating: Array(repeating: false, count: size), count: size)
            function = modules
        }

        mutating func set(column: Int, row: Int, _ dark: Bool) {
            modules[row][column] = dark
            function[row][column] = true
        }

        mutating func drawFunctionPatterns(alignment centres: [Int]) {
            for index in 0..<size {
                set(column: 6, row: index, index % 2 == 0)
                set(column: index, row: 6, index % 2 == 0)
            }
            for (column, row) in [(3, 3), (size - 4, 3), (3, size - 4)] {
                for dy in -4...4 {
                    for dx in -4...4 {
                        let (c, r) = (column + dx, row + dy)
                        guard c >= 0, r >= 0, c < size, r < size else { continue }
                        let distance = max(abs(dx), abs(dy))
                        set(column: c, row: r, distance != 2 && distance != 4)
                    }
                }
            }
            let last = centres.count - 1
            for (i, a) in centres.enumerated() {
                for (j, b) in centres.enumerated() where !((i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0)) {
                    for dy in -2...2 { for dx in -2...2 { set(column: a + dx, row: b + dy, max(abs(dx), abs(dy)) != 1) } }
                }
            }
            drawFormatBits(mask: 0)  // reserves the area; redrawn once the mask is known
            if version >= 7 {
                var remainder = version
                for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
                let bits = version << 12 | remainder
                for index in 0..<18 {
                    let dark = (bits >> index) & 1 == 1
                    let (a, b) = (size - 11 + index % 3, index / 3)
                    set(column: a, row: b, dark)
                    set(column: b, row: a, dark)
                }
            }
        }

        /// The format information: level L (01) and the mask, BCH-protected (§ 7.9).
        mutating func drawFormatBits(mask: Int) {
            let data = 1 << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
            for index in 0...5 { set(column: 8, row: index, bit(index)) }
            set(column: 8, row: 7, bit(6))
            set(column: 8, row: 8, bit(7))
            set(column: 7, row: 8, bit(8))
            for index in 9..<15 { set(column: 14 - index, row: 8, bit(index)) }
            for index in 0..<8 { set(column: size - 1 - index, row: 8, bit(index)) }
            for index in 8..<15 { set(column: 8, row: size - 15 + index, bit(index)) }
            set(column: 8, row: size - 8, true)
        }

        /// Places the codewords in the two-column zigzag (§ 7.7.3).
        mutating func drawCodewords(_ data: [UInt8]) {
            var index = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vertical in 0..<size {
                    for offset in 0..<2 {
                        let column = right - offset
                        let upward = (right + 1) & 2 == 0
                        let row = upward ? size - 1 - vertical : vertical
                        if !function[row][column], index < data.count * 8 {
                            modules[row][column] = (data[index >> 3] >> (7 - (index & 7))) & 1 == 1
                            index += 1
                        }
                    }
                }
                right -= 2
            }
        }

        /// XORs the data modules with mask pattern `mask` (§ 7.8.2).
        mutating func apply(mask: Int) {
            for row in 0..<size {
                for column in 0..<size where !function[row][column] {
                    let (x, y) = (column, row)
                    let flip =
                        switch mask {
                        case 0: (x + y) % 2 == 0
                        case 1: y % 2 == 0
                        case 2: x % 3 == 0
                        case 3: (x + y) % 3 == 0
                        case 4: (x / 3 + y / 2) % 2 == 0
                        case 5: x * y % 2 + x * y % 3 == 0
                        case 6: (x * y % 2 + x * y % 3) % 2 == 0
                        default: ((x + y) % 2 + x * y % 3) % 2 == 0
                        }
                    if flip { modules[row][column].toggle() }
                }
            }
        }

        /// The penalty of § 7.8.3: runs, 2×2 blocks, finder-like sequences and the dark ratio.
        func penalty() -> Int {
            var score = 0
            let lines = modules + (0..<size).map { column in modules.map { $0[column] } }
            let finderLike: [Bool] = [true, false, true, true, true, false, true]
            for line in lines {
                var run = 1
                for index in 1..<size {
                    if line[index] == line[index - 1] {
                        run += 1
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    } else {
                        run = 1
                    }
                }
                for start in 0...(size - 7) where Array(line[start..<start + 7]) == finderLike {
                    let before = start >= 4 && line[(start - 4)..<start].allSatisfy { !$0 }
                    let after = start + 11 <= size && line[(start + 7)..<(start + 11)].allSatisfy { !$0 }
                    if before || after { score += 40 }
                }
            }
            for row in 0..<(size - 1) {
                for column in 0..<(size - 1) {
                    let value = modules[row][column]
                    if modules[row][column + 1] == value, modules[row + 1][column] == value,
                        modules[row + 1][column + 1] == value
                    {
                        score += 3
                    }
                }
            }
            let dark = modules.reduce(0) { $0 + $1.count { $0 } }
            score += abs(dark * 100 / (size * size) - 50) / 5 * 10
            return score
        }
    }
}
