using System;

namespace Ledgerly.Accounting
{
    /// <summary>Base class of every error the ledger raises on purpose.</summary>
    public class LedgerException : Exception
    {
        public LedgerException(string message)
            : base(message)
        {
        }

        public LedgerException(string message, Exception innerException)
            : base(message, innerException)
        {
        }
    }
}
