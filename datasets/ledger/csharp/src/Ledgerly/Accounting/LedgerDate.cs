using System;
using System.Text;

namespace Ledgerly.Accounting
{
    /// <summary>A calendar date (proleptic Gregorian, years 1 to 9999) without time of day.</summary>
    public sealed class LedgerDate : IComparable<LedgerDate>
    {
        public LedgerDate(int year, int month, int day)
        {
            if (year < 1 || year > 9999)
            {
                throw new ArgumentOutOfRangeException("year", "year out of range: " + year);
            }
            if (month < 1 || month > 12)
            {
                throw new ArgumentOutOfRangeException("month", "month out of range: " + month);
            }
            if (day < 1 || day > DaysInMonth(year, month))
            {
                throw new ArgumentOutOfRangeException("day", "day out of range: " + year + "-" + month + "-" + day);
            }
            Year = year;
            Month = month;
            Day = day;
        }

        public int Year { get; }

        public int Month { get; }

        public int Day { get; }

        /// <summary>Parses an ISO date "yyyy-MM-dd".</summary>
        public static LedgerDate Parse(string text)
        {
            string s = text.Trim();
            if (s.Length != 10 || s[4] != '-' || s[7] != '-')
            {
                throw new FormatException("expected yyyy-MM-dd: " + text);
            }
            var parts = new int[3];
            int[] starts = { 0, 5, 8 };
            int[] ends = { 4, 7, 10 };
            for (int p = 0; p < 3; p++)
            {
                int value = 0;
                for (int i = starts[p]; i < ends[p]; i++)
                {
                    char c = s[i];
                    if (c < '0' || c > '9')
                    {
                        throw new FormatException("expected yyyy-MM-dd: " + text);
                    }
                    value = value * 10 + (c - '0');
                }
                parts[p] = value;
            }
            return new LedgerDate(parts[0], parts[1], parts[2]);
        }

        public static bool IsLeapYear(int year)
        {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        }

        public static int DaysInMonth(int year, int month)
        {
            switch (month)
            {
                case 2:
                    return IsLeapYear(year) ? 29 : 28;
                case 4:
                case 6:
                case 9:
                case 11:
                    return 30;
                default:
                    return 31;
            }
        }

        /// <summary>The date that is epochDay days after 1970-01-01.</summary>
        public static LedgerDate FromEpochDay(long epochDay)
        {
            long z = epochDay + 719468;
            long era = (z >= 0 ? z : z - 146096) / 146097;
            long doe = z - era * 146097;
            long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
            long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
            long mp = (5 * doy + 2) / 153;
            int d = (int)(doy - (153 * mp + 2) / 5 + 1);
            int m = (int)(mp < 10 ? mp + 3 : mp - 9);
            int y = (int)(yoe + era * 400 + (m <= 2 ? 1 : 0));
            return new LedgerDate(y, m, d);
        }

        /// <summary>Days since 1970-01-01.</summary>
        public long ToEpochDay()
        {
            long y = Month <= 2 ? Year - 1 : Year;
            long era = (y >= 0 ? y : y - 399) / 400;
            long yoe = y - era * 400;
            long doy = (153 * (Month > 2 ? Month - 3 : Month + 9) + 2) / 5 + Day - 1;
            long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
            return era * 146097 + doe - 719468;
        }

        /// <summary>ISO day of week: 1 = Monday ... 7 = Sunday.</summary>
        public int DayOfWeek()
        {
            long shifted = (ToEpochDay() + 3) % 7;
            if (shifted < 0)
            {
                shifted += 7;
            }
            return (int)shifted + 1;
        }

        public LedgerDate AddDays(int days)
        {
            return FromEpochDay(ToEpochDay() + days);
        }

        public long DaysUntil(LedgerDate other)
        {
            return other.ToEpochDay() - ToEpochDay();
        }

        public LedgerDate EndOfMonth()
        {
            return new LedgerDate(Year, Month, DaysInMonth(Year, Month));
        }

        public bool IsBefore(LedgerDate other)
        {
            return CompareTo(other) < 0;
        }

        public int CompareTo(LedgerDate other)
        {
            if (Year != other.Year)
            {
                return Year.CompareTo(other.Year);
            }
            if (Month != other.Month)
            {
                return Month.CompareTo(other.Month);
            }
            return Day.CompareTo(other.Day);
        }

        public override bool Equals(object obj)
        {
            var that = obj as LedgerDate;
            return that != null && Year == that.Year && Month == that.Month && Day == that.Day;
        }

        public override int GetHashCode()
        {
            return (Year * 12 + Month) * 31 + Day;
        }

        public override string ToString()
        {
            var sb = new StringBuilder(10);
            sb.Append(Year.ToString().PadLeft(4, '0')).Append('-');
            if (Month < 10)
            {
                sb.Append('0');
            }
            sb.Append(Month).Append('-');
            if (Day < 10)
            {
                sb.Append('0');
            }
            sb.Append(Day);
            return sb.ToString();
        }
    }
}
