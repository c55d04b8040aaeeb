// The RFC 6901 text of a JSON Pointer, for error messages that name the pointer a client sent.

import QuerydJSON

extension JSONPointer {
    /// The pointer written back as text ("" for the whole document).
    var pointerText: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for character in token {
                switch character {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.append(character)
                }
            }
        }
        return text
    }
}
