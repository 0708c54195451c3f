namespace Ledgerly.Accounting
{
    /// <summary>An account code that the ledger does not know.</summary>
    public class UnknownAccountException : LedgerException
    {
        public UnknownAccountException(string accountCode)
            : base("unknown account: " + accountCode)
        {
            AccountCode = accountCode;
        }

        public string AccountCode { get; }
    }
}
