using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("Acme.Geo.Tests")]
