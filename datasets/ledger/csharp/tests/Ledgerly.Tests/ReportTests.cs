using System.Collections.Generic;
using Ledgerly.Reporting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class ReportTests
    {
        private sealed class FixedReport : Report
        {
            public FixedReport()
                : base("Notes")
            {
            }

            public override IList<string> BodyLines()
            {
                return new List<string> { "first", "second" };
            }
        }

        [Test]
        public void ConstructorSetsTitleAndDefaultStyle()
        {
            var report = new FixedReport();
            Assert.AreEqual("Notes", report.Title);
            Assert.AreEqual(AmountStyle.Accounting, report.Style);
            report.Style = AmountStyle.Signed;
            Assert.AreEqual(AmountStyle.Signed, report.Style);
        }

        [Test]
        public void DefaultFooterIsEmpty()
        {
            Assert.AreEqual("", new FixedReport().Footer());
        }

        [Test]
        public void RenderUnderlinesTitleAndSkipsEmptyFooter()
        {
            Assert.AreEqual("Notes\n=====\nfirst\nsecond\n", new FixedReport().Render());
        }
    }
}
