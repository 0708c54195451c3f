using System;
using System.Collections.Generic;
using System.Text;

namespace Ledgerly.Accounting
{
    /// <summary>An amount of money held as a whole number of cents in one currency.</summary>
    public sealed class Money : IComparable<Money>
    {
        public Money(long cents, string currency)
        {
            if (currency == null || currency.Length != 3)
            {
                throw new ArgumentException("currency must be a 3-letter code: " + currency, "currency");
            }
            foreach (char c in currency)
            {
                if (c < 'A' || c > 'Z')
                {
                    throw new ArgumentException("currency must be upper-case letters: " + currency, "currency");
                }
            }
            Cents = cents;
            Currency = currency;
        }

        public long Cents { get; }

        public string Currency { get; }

        public bool IsZero
        {
            get { return Cents == 0; }
        }

        public bool IsNegative
        {
            get { return Cents < 0; }
        }

        public static Money Zero(string currency)
        {
            return new Money(0, currency);
        }

        public static Money Of(string currency, long units, int cents)
        {
            if (cents < 0 || cents > 99)
            {
                throw new ArgumentOutOfRangeException("cents", "cents out of range: " + cents);
            }
            long total = Math.Abs(units) * 100 + cents;
            return new Money(units < 0 ? -total : total, currency);
        }

        /// <summary>Parses a decimal amount such as "-12.5" or "1,234.07" into cents.</summary>
        public static long ParseCents(string text)
        {
            string s = text.Trim();
            if (s.Length == 0)
            {
                throw new FormatException("empty amount");
            }
            bool negative = false;
            int i = 0;
            if (s[0] == '-' || s[0] == '+')
            {
                negative = s[0] == '-';
                i = 1;
            }
            long units = 0;
            long fraction = 0;
            int fractionDigits = 0;
            bool inFraction = false;
            bool sawDigit = false;
            for (; i < s.Length; i++)
            {
                char c = s[i];
                if (c == ',' && !inFraction)
                {
                    continue;
                }
                if (c == '.' && !inFraction)
                {
                    inFraction = true;
                    continue;
                }
                if (c < '0' || c > '9')
                {
                    throw new FormatException("bad character '" + c + "' in amount: " + text);
                }
                sawDigit = true;
                if (inFraction)
                {
                    if (fractionDigits == 2)
                    {
                        throw new FormatException("more than two decimals in amount: " + text);
                    }
                    fraction = fraction * 10 + (c - '0');
                    fractionDigits++;
                }
                else
                {
                    units = units * 10 + (c - '0');
                }
            }
            if (!sawDigit)
            {
                throw new FormatException("no digits in amount: " + text);
            }
            if (fractionDigits == 1)
            {
                fraction *= 10;
            }
            long total = units * 100 + fraction;
            return negative ? -total : total;
        }

        /// <summary>Parses "USD 12.34" (currency, one space, decimal amount).</summary>
        public static Money Parse(string text)
        {
            int space = text.IndexOf(' ');
            if (space < 0)
            {
                throw new FormatException("expected '<CUR> <amount>': " + text);
            }
            return new Money(ParseCents(text.Substring(space + 1)), text.Substring(0, space));
        }

        public void RequireSameCurrency(Money other)
        {
            if (Currency != other.Currency)
            {
                throw new CurrencyMismatchException(Currency, other.Currency);
            }
        }

        public Money Add(Money other)
        {
            RequireSameCurrency(other);
            return new Money(Cents + other.Cents, Currency);
        }

        public Money Subtract(Money other)
        {
            RequireSameCurrency(other);
            return new Money(Cents - other.Cents, Currency);
        }

        public Money Negate()
        {
            return new Money(-Cents, Currency);
        }

        public Money Abs()
        {
            return Cents < 0 ? Negate() : this;
        }

        public Money Multiply(int factor)
        {
            return new Money(Cents * factor, Currency);
        }

        /// <summary>Multiplies by a rate and rounds half away from zero to whole cents.</summary>
        public Money Multiply(double rate)
        {
            double exact = Cents * rate;
            long rounded = exact < 0 ? -(long)Math.Floor(-exact + 0.5) : (long)Math.Floor(exact + 0.5);
            return new Money(rounded, Currency);
        }

        /// <summary>Splits into parts as even as possible; the first (remainder) parts get one extra cent.</summary>
        public List<Money> Allocate(int parts)
        {
            if (parts <= 0)
            {
                throw new ArgumentOutOfRangeException("parts", "parts must be positive: " + parts);
            }
            long share = Cents / parts;
            long remainder = Cents % parts;
            long step = remainder < 0 ? -1 : 1;
            var result = new List<Money>(parts);
            for (int i = 0; i < parts; i++)
            {
                long amount = share;
                if (i < Math.Abs(remainder))
                {
                    amount += step;
                }
                result.Add(new Money(amount, Currency));
            }
            return result;
        }

        /// <summary>The amount without currency: "-1234.05".</summary>
        public string ToPlainString()
        {
            long abs = Math.Abs(Cents);
            long frac = abs % 100;
            var sb = new StringBuilder();
            if (Cents < 0)
            {
                sb.Append('-');
            }
            sb.Append(abs / 100).Append('.');
            if (frac < 10)
            {
                sb.Append('0');
            }
            sb.Append(frac);
            return sb.ToString();
        }

        public int CompareTo(Money other)
        {
            RequireSameCurrency(other);
            return Cents.CompareTo(other.Cents);
        }

        public override bool Equals(object obj)
        {
            var that = obj as Money;
            return that != null && Cents == that.Cents && Currency == that.Currency;
        }

        public override int GetHashCode()
        {
            unchecked
            {
                return 31 * Currency.GetHashCode() + Cents.GetHashCode();
            }
        }

        public override string ToString()
        {
            return Currency + " " + ToPlainString();
        }
    }
}
