using System;

namespace Ledgerly.Accounting
{
    /// <summary>The five kinds of account in double-entry bookkeeping.</summary>
    public enum AccountType
    {
        Asset,
        Liability,
        Equity,
        Income,
        Expense
    }

    /// <summary>Codes and sign rules of <see cref="AccountType"/> (Java keeps them on the enum itself).</summary>
    public static class AccountTypes
    {
        public static char Code(this AccountType type)
        {
            switch (type)
            {
                case AccountType.Asset:
                    return 'A';
                case AccountType.Liability:
                    return 'L';
                case AccountType.Equity:
                    return 'E';
                case AccountType.Income:
                    return 'I';
                case AccountType.Expense:
                    return 'X';
                default:
                    throw new ArgumentOutOfRangeException("type", "unknown account type: " + type);
            }
        }

        public static bool IsDebitNormal(this AccountType type)
        {
            return type == AccountType.Asset || type == AccountType.Expense;
        }

        /// <summary>+1 when a debit increases the balance as reported, -1 otherwise.</summary>
        public static int NormalSign(this AccountType type)
        {
            return type.IsDebitNormal() ? 1 : -1;
        }

        public static bool IsBalanceSheet(this AccountType type)
        {
            switch (type)
            {
                case AccountType.Asset:
                case AccountType.Liability:
                case AccountType.Equity:
                    return true;
                default:
                    return false;
            }
        }

        public static AccountType FromCode(char code)
        {
            switch (char.ToUpperInvariant(code))
            {
                case 'A':
                    return AccountType.Asset;
                case 'L':
                    return AccountType.Liability;
                case 'E':
                    return AccountType.Equity;
                case 'I':
                    return AccountType.Income;
                case 'X':
                    return AccountType.Expense;
                default:
                    throw new ArgumentException("unknown account type code: " + code, "code");
            }
        }
    }
}
