using System;
using NUnit.Framework;

namespace Acme.Geo.Tests
{
    [TestFixture]
    public class GeometryExceptionTests
    {
        [Test]
        public void KeepsMessage()
        {
            var ex = new GeometryException("bad shape");
            Assert.AreEqual("bad shape", ex.Message);
            Assert.IsTrue(ex.InnerException == null);
        }

        [Test]
        public void KeepsCause()
        {
            var cause = new FormatException("not a number");
            var ex = new GeometryException("bad input", cause);
            Assert.AreEqual("bad input", ex.Message);
            Assert.IsTrue(ReferenceEquals(cause, ex.InnerException));
        }
    }
}
