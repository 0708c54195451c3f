namespace Ledgerly.Reporting
{
    /// <summary>How a report prints amounts.</summary>
    public enum AmountStyle
    {
        /// <summary>"-1234.50"</summary>
        Plain,

        /// <summary>"1,234.50" and "(1,234.50)" for negatives</summary>
        Accounting,

        /// <summary>"+1,234.50" / "-1,234.50"</summary>
        Signed
    }
}
