namespace Ledgerly.Accounting
{
    /// <summary>A transaction whose postings do not sum to zero.</summary>
    public class UnbalancedTransactionException : LedgerException
    {
        public UnbalancedTransactionException(string transactionId, long imbalanceCents)
            : base("transaction " + transactionId + " is off by " + imbalanceCents + " cents")
        {
            TransactionId = transactionId;
            ImbalanceCents = imbalanceCents;
        }

        public string TransactionId { get; }

        public long ImbalanceCents { get; }
    }
}
