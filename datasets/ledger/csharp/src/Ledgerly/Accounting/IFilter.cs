namespace Ledgerly.Accounting
{
    /// <summary>A yes/no test on a value.</summary>
    public interface IFilter<T>
    {
        bool Accepts(T value);
    }
}
