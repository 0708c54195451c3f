namespace Ledgerly.Accounting
{
    /// <summary>Arithmetic between amounts of two different currencies.</summary>
    public class CurrencyMismatchException : LedgerException
    {
        public CurrencyMismatchException(string expected, string actual)
            : base("currency mismatch: expected " + expected + " but got " + actual)
        {
        }
    }
}
