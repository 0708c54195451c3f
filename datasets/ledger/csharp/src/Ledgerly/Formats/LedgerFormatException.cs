using System;
using Ledgerly.Accounting;

namespace Ledgerly.Formats
{
    /// <summary>Malformed journal text; carries the 1-based line number.</summary>
    public class LedgerFormatException : LedgerException
    {
        public LedgerFormatException(int lineNumber, string message)
            : base("line " + lineNumber + ": " + message)
        {
            LineNumber = lineNumber;
        }

        public LedgerFormatException(int lineNumber, string message, Exception innerException)
            : base("line " + lineNumber + ": " + message, innerException)
        {
            LineNumber = lineNumber;
        }

        public int LineNumber { get; }
    }
}
