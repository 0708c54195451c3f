using System;
using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Formats;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class JournalReaderTests
    {
        private const string Journal =
            "# chart\n" +
            "!account 1000;Assets;A;\n" +
            "!account 1100;Bank;A;1000\n" +
            "!account 3000;Equity;E;\n" +
            "!account 4000;Sales;I;\n" +
            "\n" +
            "T1,2024-01-02,1100,500.00,Opening\r\n" +
            "T1,2024-01-02,3000,-500.00,\n" +
            "T2,2024-01-03,1100,\"1,200.50\",\"Sale, cash\"\n" +
            "T2,2024-01-03,4000,-1200.50,\n";

        private Ledger ledger;
        private JournalReader reader;

        [SetUp]
        public void SetUp()
        {
            ledger = new Ledger("USD");
            reader = new JournalReader(ledger);
        }

        [Test]
        public void ParseRowBuildsPosting()
        {
            ledger.AddAccount(new Account("4000", "Sales", AccountType.Income));
            Posting p = reader.ParseRow(new List<string> { "T1", "2024-01-02", " 4000 ", "-12.5", " memo " });
            Assert.AreEqual("4000", p.Account.Code);
            Assert.AreEqual(-1250L, p.Amount.Cents);
            Assert.AreEqual("USD", p.Amount.Currency);
            Assert.AreEqual("memo", p.Memo);
            Assert.Throws<FormatException>(() => reader.ParseRow(new List<string> { "T1", "2024-01-02", "4000" }));
        }

        [Test]
        public void ReadGroupsRowsIntoTransactions()
        {
            List<Transaction> transactions = reader.Read(Journal);
            Assert.AreEqual(4, ledger.Accounts.Count);
            Assert.AreEqual("1000", ledger.GetAccount("1100").Parent.Code);
            Assert.AreEqual(2, transactions.Count);
            Assert.AreEqual("T1", transactions[0].Id);
            Assert.AreEqual("Opening", transactions[0].Description);
            Assert.AreEqual(new LedgerDate(2024, 1, 2), transactions[0].Date);
            Assert.AreEqual(2, transactions[0].Postings.Count);
            Assert.AreEqual("Sale, cash", transactions[1].Description);
            Assert.AreEqual(120050L, transactions[1].Total().Cents);
            Assert.AreEqual(0, ledger.TransactionCount);
        }

        [Test]
        public void ReadReportsLineOfBadRow()
        {
            string text = "!account 1000;Assets;A;\n!account 3000;Equity;E;\nT1,2024-01-02,1000,5.00,x\nT1,2024-01-02,3000,-5.0x,\n";
            var e = Assert.Throws<LedgerFormatException>(() => reader.Read(text));
            Assert.AreEqual(4, e.LineNumber);
            Assert.IsTrue(e.InnerException is FormatException);
        }

        [Test]
        public void ReadReportsUnknownAccountAndBadChart()
        {
            var e1 = Assert.Throws<LedgerFormatException>(() => reader.Read("\n\nT1,2024-01-02,1000,5.00,x\n"));
            Assert.AreEqual(3, e1.LineNumber);
            Assert.AreEqual("line 3: unknown account: 1000", e1.Message);
            var e2 = Assert.Throws<LedgerFormatException>(() => reader.Read("!account 1000;Assets;Q;\n"));
            Assert.AreEqual(1, e2.LineNumber);
        }

        [Test]
        public void ReadReportsUnbalancedTransactionAtItsFirstLine()
        {
            string text = "!account 1000;Assets;A;\n!account 3000;Equity;E;\n" +
                "T1,2024-01-02,1000,5.00,x\nT1,2024-01-02,3000,-4.00,\n" +
                "T2,2024-01-03,1000,1.00,y\nT2,2024-01-03,3000,-1.00,\n";
            var e = Assert.Throws<LedgerFormatException>(() => reader.Read(text));
            Assert.AreEqual(3, e.LineNumber);
            Assert.IsTrue(e.InnerException is UnbalancedTransactionException);
        }

        [Test]
        public void FinishWrapsBuildErrors()
        {
            ledger.AddAccount(new Account("1000", "Assets", AccountType.Asset));
            var builder = new Transaction.Builder("T1", LedgerDate.Parse("2024-01-01"))
                .Debit(ledger.GetAccount("1000"), SampleBooks.Usd(5));
            var e = Assert.Throws<LedgerFormatException>(() => reader.Finish(builder, 17));
            Assert.AreEqual(17, e.LineNumber);
            Assert.AreEqual("line 17: transaction T1 needs at least two postings", e.Message);
            ledger.AddAccount(new Account("3000", "Equity", AccountType.Equity));
            builder.Credit(ledger.GetAccount("3000"), SampleBooks.Usd(5));
            Assert.AreEqual("T1", reader.Finish(builder, 17).Id);
        }

        [Test]
        public void LoadPostsEverything()
        {
            Assert.AreEqual(2, reader.Load(Journal));
            Assert.AreEqual(2, ledger.TransactionCount);
            Assert.AreEqual(SampleBooks.Usd(170050), ledger.RolledUpBalance("1000"));
            Assert.AreEqual(SampleBooks.Usd(-120050), ledger.BalanceOf("4000"));
        }
    }
}
