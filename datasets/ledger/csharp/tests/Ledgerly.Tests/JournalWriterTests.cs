using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Formats;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class JournalWriterTests
    {
        private readonly JournalWriter writer = new JournalWriter();

        [Test]
        public void WriteRowFormatsOnePosting()
        {
            Ledger ledger = SampleBooks.Chart();
            Transaction tx = SampleBooks.Tx(ledger, "T,1", "2024-01-05", "x", "1110", "3000", 123456);
            Assert.AreEqual("\"T,1\",2024-01-05,3000,-1234.56,", writer.WriteRow(tx, tx.Postings[1]));
            var memo = new Posting(ledger.GetAccount("1110"), SampleBooks.Usd(7), "a \"b\"");
            Assert.AreEqual("\"T,1\",2024-01-05,1110,0.07,\"a \"\"b\"\"\"", writer.WriteRow(tx, memo));
        }

        [Test]
        public void WriteEmitsOneRowPerPosting()
        {
            Ledger ledger = SampleBooks.Posted();
            string text = writer.Write(ledger.Find(Filters.Involving("5000")));
            Assert.AreEqual("T3,2024-02-01,5000,800.00,Rent February\nT3,2024-02-01,1110,-800.00,\n", text);
        }

        [Test]
        public void WriteChartListsAccountsInOrder()
        {
            var ledger = new Ledger("USD");
            var assets = new Account("1000", "Assets", AccountType.Asset);
            ledger.AddAccount(assets);
            ledger.AddAccount(new Account("1100", "Bank", AccountType.Asset, assets));
            ledger.AddAccount(new Account("4000", "Sales", AccountType.Income));
            Assert.AreEqual("!account 1000;Assets;A;\n!account 1100;Bank;A;1000\n!account 4000;Sales;I;\n", writer.WriteChart(ledger));
        }

        [Test]
        public void WrittenJournalReadsBack()
        {
            Ledger source = SampleBooks.Posted();
            var all = new List<Transaction>(source.Find(Filters.Not(Filters.Involving("0000"))));
            string text = writer.WriteChart(source) + writer.Write(all);
            var copy = new Ledger("USD");
            Assert.AreEqual(4, new JournalReader(copy).Load(text));
            Assert.AreEqual(source.Balances()["1110"], copy.Balances()["1110"]);
            Assert.AreEqual("Supplies on credit", copy.Find(Filters.Involving("2000"))[0].Description);
        }
    }
}
