#!/usr/bin/env bash
# Compiles the README's Swift examples, and runs its test examples, in Examples/ReadmeSnippets: a
# package that depends on this one by path, as an app would. Each ```swift block of README.md becomes
# one file (README-<line>.swift); a block that imports Testing goes to the test target, any other
# to the library target. So an example that no longer compiles, or a test example that fails,
# fails `make test`, with a diagnostic that names README.md and the line.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
package=Examples/ReadmeSnippets
sources=$package/Sources/ReadmeSnippets
tests=$package/Tests/ReadmeSnippetsTests
rm -f "$sources"/README-*.swift "$tests"/README-*.swift

readme="$(pwd)/README.md"
count=$(awk -v sources="$sources" -v tests="$tests" -v readme="$readme" '
    /^```swift[[:space:]]*$/ { inside = 1; start = NR + 1; body = ""; next }
    inside && /^```[[:space:]]*$/ {
        inside = 0
        directory = (body ~ /(^|\n)import Testing\n/) ? tests : sources
        file = sprintf("%s/README-%04d.swift", directory, start)
        printf "// Generated from README.md line %d by scripts/readme-snippets.sh: edit the README.\n", start > file
        # Diagnostics then name README.md and its line, not this file.
        printf "#sourceLocation(file: \"%s\", line: %d)\n%s", readme, start, body > file
        close(file)
        blocks++
        next
    }
    inside { body = body $0 "\n" }
    END {
        if (inside) { print "README.md: a ```swift block is not closed" > "/dev/stderr"; exit 1 }
        print blocks + 0
    }
' README.md)
if [ "$count" -eq 0 ]; then
    echo "readme-snippets: README.md has no \`\`\`swift block" >&2
    exit 1
fi
echo "readme-snippets: $count blocks from README.md"
$SWIFT build --package-path "$package" --build-tests
$SWIFT test --package-path "$package" --skip-build
