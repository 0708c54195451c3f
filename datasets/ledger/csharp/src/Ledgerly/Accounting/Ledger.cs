using System.Collections.Generic;

namespace Ledgerly.Accounting
{
    /// <summary>A chart of accounts plus the journal of posted transactions, in one currency.</summary>
    public class Ledger
    {
        private readonly Dictionary<string, Account> accountsByCode = new Dictionary<string, Account>();
        private readonly List<Account> chart = new List<Account>();
        private readonly List<Transaction> journal = new List<Transaction>();
        private readonly HashSet<string> transactionIds = new HashSet<string>();

        public Ledger(string currency)
        {
            Currency = Money.Zero(currency).Currency;
        }

        public string Currency { get; }

        /// <summary>The accounts in the order they were added.</summary>
        public IReadOnlyList<Account> Accounts
        {
            get { return chart.AsReadOnly(); }
        }

        public int TransactionCount
        {
            get { return journal.Count; }
        }

        public void AddAccount(Account account)
        {
            if (accountsByCode.ContainsKey(account.Code))
            {
                throw new LedgerException("duplicate account code: " + account.Code);
            }
            Account parent = account.Parent;
            if (parent != null && !accountsByCode.ContainsKey(parent.Code))
            {
                throw new UnknownAccountException(parent.Code);
            }
            accountsByCode.Add(account.Code, account);
            chart.Add(account);
        }

        public bool HasAccount(string code)
        {
            return accountsByCode.ContainsKey(code);
        }

        public Account GetAccount(string code)
        {
            Account account;
            if (!accountsByCode.TryGetValue(code, out account))
            {
                throw new UnknownAccountException(code);
            }
            return account;
        }

        public List<Account> AccountsOfType(AccountType type)
        {
            var result = new List<Account>();
            foreach (Account a in chart)
            {
                if (a.Type == type)
                {
                    result.Add(a);
                }
            }
            return result;
        }

        public void Post(Transaction tx)
        {
            if (transactionIds.Contains(tx.Id))
            {
                throw new LedgerException("duplicate transaction id: " + tx.Id);
            }
            foreach (Posting p in tx.Postings)
            {
                if (!accountsByCode.ContainsKey(p.Account.Code))
                {
                    throw new UnknownAccountException(p.Account.Code);
                }
                if (p.Amount.Currency != Currency)
                {
                    throw new CurrencyMismatchException(Currency, p.Amount.Currency);
                }
            }
            journal.Add(tx);
            transactionIds.Add(tx.Id);
        }

        /// <summary>Debit-positive balance of one account over the whole journal.</summary>
        public Money BalanceOf(string code)
        {
            GetAccount(code);
            long sum = 0;
            foreach (Transaction tx in journal)
            {
                foreach (Posting p in tx.Postings)
                {
                    if (p.Account.Code == code)
                    {
                        sum += p.Amount.Cents;
                    }
                }
            }
            return new Money(sum, Currency);
        }

        /// <summary>Debit-positive balance of one account counting transactions dated on or before asOf.</summary>
        public Money BalanceOf(string code, LedgerDate asOf)
        {
            GetAccount(code);
            long sum = 0;
            foreach (Transaction tx in journal)
            {
                if (asOf.IsBefore(tx.Date))
                {
                    continue;
                }
                foreach (Posting p in tx.Postings)
                {
                    if (p.Account.Code == code)
                    {
                        sum += p.Amount.Cents;
                    }
                }
            }
            return new Money(sum, Currency);
        }

        /// <summary>Balance of an account plus all of its descendants.</summary>
        public Money RolledUpBalance(string code)
        {
            Account root = GetAccount(code);
            Money total = BalanceOf(code);
            foreach (Account a in chart)
            {
                if (a.IsDescendantOf(root))
                {
                    total = total.Add(BalanceOf(a.Code));
                }
            }
            return total;
        }

        public List<Transaction> Find(IFilter<Transaction> filter)
        {
            return Filters.Apply(journal, filter);
        }

        /// <summary>Balances of every account as a code -> cents map.</summary>
        public Dictionary<string, long> Balances()
        {
            var result = new Dictionary<string, long>();
            foreach (Account a in chart)
            {
                result[a.Code] = 0;
            }
            foreach (Transaction tx in journal)
            {
                foreach (Posting p in tx.Postings)
                {
                    result[p.Account.Code] += p.Amount.Cents;
                }
            }
            return result;
        }
    }
}
