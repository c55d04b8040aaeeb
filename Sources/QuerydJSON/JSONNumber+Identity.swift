// The identity text of a JSON number: one spelling per numeric value, so byte equality of the
// text is numeric equality (`JSONNumber.==`). Query keys use it as part of their canonical bytes.

extension JSONNumber {
    /// Appends the number's identity text: integers (of any size) as plain digits, other values in
    /// Swift's shortest round-trip form. Two numbers write the same text exactly when they are
    /// equal (`1`, `1.0` and `1e0` all write `1`; `1e20` and `100000000000000000000` write the
    /// latter). It differs from `description` only for integral doubles beyond the Int64 range.
    public func writeIdentity(to buffer: inout [UInt8]) {
        if case .double(let d) = storage, let digits = JSONNumber.exactIntegerText(d) {
            buffer.append(contentsOf: digits.utf8)
        } else {
            JSONWriter.writeNumber(self, to: &buffer)
        }
    }
}
