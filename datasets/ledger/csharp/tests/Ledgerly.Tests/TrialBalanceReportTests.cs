using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Reporting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class TrialBalanceReportTests
    {
        private TrialBalanceReport report;

        [SetUp]
        public void SetUp()
        {
            report = new TrialBalanceReport(SampleBooks.Posted());
        }

        [Test]
        public void TitleNamesCurrency()
        {
            Assert.AreEqual("Trial balance (USD)", report.Title);
        }

        [Test]
        public void RowSplitsBalanceIntoColumns()
        {
            var debit = new TrialBalanceReport.Row("1110", "Checking", 500);
            Assert.AreEqual("1110", debit.Code);
            Assert.AreEqual("Checking", debit.Name);
            Assert.AreEqual(500L, debit.DebitCents);
            Assert.AreEqual(0L, debit.CreditCents);
            var credit = new TrialBalanceReport.Row("3000", "Equity", -700);
            Assert.AreEqual(0L, credit.DebitCents);
            Assert.AreEqual(700L, credit.CreditCents);
        }

        [Test]
        public void RowsSkipZeroBalances()
        {
            List<TrialBalanceReport.Row> rows = report.Rows();
            var codes = new List<string>();
            foreach (TrialBalanceReport.Row r in rows)
            {
                codes.Add(r.Code);
            }
            Assert.AreEqual("1110,2000,3000,4100,5000,5100", string.Join(",", codes));
            Assert.AreEqual(250000L, rows[3].CreditCents);
        }

        [Test]
        public void TotalsMatch()
        {
            Assert.AreEqual(362050L, report.TotalDebits());
            Assert.AreEqual(362050L, report.TotalCredits());
            Assert.IsTrue(report.IsBalanced);
        }

        [Test]
        public void IsBalancedFalseWhenColumnsDiffer()
        {
            var ledger = new Ledger("USD");
            ledger.AddAccount(new Account("1000", "Cash", AccountType.Asset));
            Assert.IsTrue(new TrialBalanceReport(ledger).IsBalanced);
            Assert.AreEqual(0L, new TrialBalanceReport(ledger).TotalDebits());
        }

        [Test]
        public void FormatCellPadsAndBlanksZero()
        {
            Assert.AreEqual("      1,234.56", report.FormatCell(123456));
            Assert.AreEqual("              ", report.FormatCell(0));
            report.Style = AmountStyle.Plain;
            Assert.AreEqual("       1234.56", report.FormatCell(123456));
        }

        [Test]
        public void BodyLinesAlignColumns()
        {
            IList<string> lines = report.BodyLines();
            Assert.AreEqual(6, lines.Count);
            Assert.AreEqual("1110 Checking                 2,700.00              ", lines[0]);
            Assert.AreEqual("2000 Payables                                 120.50", lines[1]);
            Assert.AreEqual("5100 Supplies                   120.50              ", lines[5]);
        }

        [Test]
        public void FooterShowsTotals()
        {
            Assert.AreEqual("Total                         3,620.50      3,620.50", report.Footer());
        }

        [Test]
        public void RenderIncludesFooter()
        {
            string text = report.Render();
            Assert.IsTrue(text.StartsWith("Trial balance (USD)\n===================\n1110 Checking"));
            Assert.IsTrue(text.EndsWith("\nTotal                         3,620.50      3,620.50\n"));
        }
    }
}
