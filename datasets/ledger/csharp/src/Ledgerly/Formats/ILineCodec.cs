namespace Ledgerly.Formats
{
    /// <summary>Converts a value to one line of text and back.</summary>
    public interface ILineCodec<T>
    {
        string Encode(T value);

        T Decode(string line);
    }
}
