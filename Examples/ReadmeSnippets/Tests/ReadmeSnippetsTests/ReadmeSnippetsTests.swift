// The README's test examples (the ```swift blocks that import Testing) are written next to this file
// by scripts/readme-snippets.sh (README-<line>.swift, not checked in). Edit the README, not them.
