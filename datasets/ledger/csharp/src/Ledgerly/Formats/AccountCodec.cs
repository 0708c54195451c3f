using System;
using Ledgerly.Accounting;

namespace Ledgerly.Formats
{
    /// <summary>Chart lines "code;name;typeCode;parentCode" (parentCode empty for top-level accounts).</summary>
    public class AccountCodec : ILineCodec<Account>
    {
        private readonly Ledger ledger;

        public AccountCodec(Ledger ledger)
        {
            this.ledger = ledger;
        }

        public string Encode(Account account)
        {
            if (account.Name.IndexOf(';') >= 0)
            {
                throw new ArgumentException("account name must not contain ';': " + account.Name, "account");
            }
            string parent = account.Parent == null ? "" : account.Parent.Code;
            return account.Code + ";" + account.Name + ";" + account.Type.Code() + ";" + parent;
        }

        public Account Decode(string line)
        {
            string[] parts = line.Split(';');
            if (parts.Length != 4)
            {
                throw new FormatException("expected 4 fields separated by ';' but got " + parts.Length);
            }
            if (parts[2].Length != 1)
            {
                throw new FormatException("account type must be one letter: " + parts[2]);
            }
            AccountType type = AccountTypes.FromCode(parts[2][0]);
            Account parent = parts[3].Length == 0 ? null : ledger.GetAccount(parts[3]);
            return new Account(parts[0], parts[1], type, parent);
        }
    }
}
