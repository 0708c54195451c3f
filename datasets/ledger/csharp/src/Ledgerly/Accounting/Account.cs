using System;
using System.Text;
using Ledgerly.Common;

namespace Ledgerly.Accounting
{
    /// <summary>A node in the chart of accounts.</summary>
    public class Account
    {
        public Account(string code, string name, AccountType type)
            : this(code, name, type, null)
        {
        }

        public Account(string code, string name, AccountType type, Account parent)
        {
            if (!Checks.IsValidAccountCode(code))
            {
                throw new ArgumentException("invalid account code: " + code, "code");
            }
            Code = code;
            Name = Checks.RequireNonEmpty(name, "name");
            Type = type;
            Parent = parent;
            if (parent != null && parent.Type != type)
            {
                throw new ArgumentException("account " + code + " must have the type of its parent", "parent");
            }
        }

        public string Code { get; }

        public string Name { get; }

        public AccountType Type { get; }

        public Account Parent { get; }

        public int Depth
        {
            get
            {
                int depth = 0;
                for (Account a = Parent; a != null; a = a.Parent)
                {
                    depth++;
                }
                return depth;
            }
        }

        /// <summary>Names from the root down, joined with ':' (e.g. "Assets:Bank:Checking").</summary>
        public string Path
        {
            get
            {
                var sb = new StringBuilder(Name);
                for (Account a = Parent; a != null; a = a.Parent)
                {
                    sb.Insert(0, ':').Insert(0, a.Name);
                }
                return sb.ToString();
            }
        }

        public bool IsDescendantOf(Account ancestor)
        {
            for (Account a = Parent; a != null; a = a.Parent)
            {
                if (a.Code == ancestor.Code)
                {
                    return true;
                }
            }
            return false;
        }

        public override bool Equals(object obj)
        {
            var other = obj as Account;
            return other != null && other.Code == Code;
        }

        public override int GetHashCode()
        {
            return Code.GetHashCode();
        }

        public override string ToString()
        {
            return Code + " " + Name;
        }
    }
}
