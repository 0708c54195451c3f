using System;
using System.Collections;
using System.Collections.Generic;
using Acme.Geo.Shapes;
using NUnit.Framework;

namespace Acme.Geo.Tests.Shapes
{
    [TestFixture]
    public class ShapeCollectionTests
    {
        private ShapeCollection<IShape> shapes;
        private Rectangle rect;
        private Square unit;
        private Circle circle;

        [SetUp]
        public void SetUp()
        {
            rect = new Rectangle(Point2D.Origin, 2, 1);
            unit = new Square(new Point2D(5, 5), 1);
            circle = new Circle(1);
            shapes = new ShapeCollection<IShape>();
            shapes.Add(rect);
            shapes.Add(unit);
            shapes.Add(circle);
        }

        [Test]
        public void AddAndIndexer()
        {
            Assert.AreEqual(3, shapes.Count);
            Assert.IsTrue(ReferenceEquals(unit, shapes[1]));
            Assert.IsTrue(ReferenceEquals(circle, shapes[2]));
        }

        [Test]
        public void AddRejectsNull()
        {
            Assert.Throws<ArgumentNullException>(() => shapes.Add(null));
            Assert.AreEqual(3, shapes.Count);
        }

        [Test]
        public void IndexerChecksRange()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => { IShape unused = shapes[3]; });
            Assert.Throws<ArgumentOutOfRangeException>(() => { IShape unused = shapes[-1]; });
        }

        [Test]
        public void AddRangeAppendsInOrder()
        {
            var circles = new ShapeCollection<Circle>();
            circles.AddRange(new List<Circle> { new Circle(1), new Circle(2) });
            circles.AddRange(new[] { new Circle(3) });
            Assert.AreEqual(3, circles.Count);
            Assert.AreEqual(3.0, circles[2].Radius);
        }

        [Test]
        public void IsEmptyTracksContent()
        {
            Assert.IsFalse(shapes.IsEmpty);
            Assert.IsTrue(new ShapeCollection<Circle>().IsEmpty);
        }

        [Test]
        public void TotalAreaSumsShapes()
        {
            Assert.AreEqual(3.0 + Math.PI, shapes.TotalArea(), 1e-12);
            Assert.AreEqual(0.0, new ShapeCollection<Circle>().TotalArea());
        }

        [Test]
        public void LargestPicksMaxAreaFirstOnTies()
        {
            Assert.IsTrue(ReferenceEquals(circle, shapes.Largest()));
            var squares = new ShapeCollection<Square>();
            var first = new Square(Point2D.Origin, 2);
            squares.Add(first);
            squares.Add(new Square(new Point2D(1, 1), 2));
            Assert.IsTrue(ReferenceEquals(first, squares.Largest()));
        }

        [Test]
        public void LargestOfEmptyFails()
        {
            Assert.Throws<InvalidOperationException>(() => new ShapeCollection<Circle>().Largest());
        }

        [Test]
        public void FilterKeepsMatchingInOrder()
        {
            ShapeCollection<IShape> small = shapes.Filter(s => s.Area() < 3);
            Assert.AreEqual(2, small.Count);
            Assert.IsTrue(ReferenceEquals(rect, small[0]));
            Assert.IsTrue(ReferenceEquals(unit, small[1]));
            Assert.AreEqual(3, shapes.Count);
        }

        [Test]
        public void SortedByAreaIsAscending()
        {
            IList<IShape> sorted = shapes.SortedByArea();
            Assert.IsTrue(ReferenceEquals(unit, sorted[0]));
            Assert.IsTrue(ReferenceEquals(rect, sorted[1]));
            Assert.IsTrue(ReferenceEquals(circle, sorted[2]));
            Assert.IsTrue(ReferenceEquals(rect, shapes[0]));
        }

        [Test]
        public void MapProjectsEachShape()
        {
            IList<string> names = shapes.Map(s => s.Name);
            Assert.AreEqual("rectangle,square,circle", string.Join(",", names));
        }

        [Test]
        public void EnumeratesInInsertionOrder()
        {
            var names = new List<string>();
            foreach (IShape shape in shapes)
            {
                names.Add(shape.Name);
            }
            Assert.AreEqual("rectangle,square,circle", string.Join(",", names));
            int count = 0;
            foreach (object item in (IEnumerable)shapes)
            {
                Assert.IsTrue(item is IShape);
                count++;
            }
            Assert.AreEqual(3, count);
        }

        [Test]
        public void SummarizeTotalsAreaAndPerimeter()
        {
            var boxes = new ShapeCollection<Rectangle>();
            boxes.Add(rect);
            boxes.Add(unit);
            ShapeCollection<Rectangle>.Summary summary = boxes.Summarize();
            Assert.AreEqual(2, summary.Count);
            Assert.AreEqual(3.0, summary.TotalArea);
            Assert.AreEqual(10.0, summary.TotalPerimeter);
            Assert.AreEqual(1.5, summary.AverageArea);
            Assert.AreEqual("2 shapes, area 3, perimeter 10", summary.ToString());
        }

        [Test]
        public void SummaryOfNothingHasZeroAverage()
        {
            var summary = new ShapeCollection<Circle>.Summary(0, 0.0, 0.0);
            Assert.AreEqual(0.0, summary.AverageArea);
            Assert.AreEqual("0 shapes, area 0, perimeter 0", new ShapeCollection<Circle>().Summarize().ToString());
        }

        [Test]
        public void SummaryRoundsToTwoDecimals()
        {
            Assert.AreEqual("3 shapes, area 6.14, perimeter 16.28", shapes.Summarize().ToString());
        }
    }
}
