using System.Collections.Generic;
using System.Text;

namespace Ledgerly.Reporting
{
    /// <summary>A titled text report: title, underline, body lines, optional footer.</summary>
    public abstract class Report
    {
        protected Report(string title)
        {
            Title = title;
            Style = AmountStyle.Accounting;
        }

        public string Title { get; }

        public AmountStyle Style { get; set; }

        public abstract IList<string> BodyLines();

        /// <summary>The last line under the body; empty for no footer.</summary>
        public virtual string Footer()
        {
            return "";
        }

        public string Render()
        {
            var sb = new StringBuilder();
            sb.Append(Title).Append('\n');
            sb.Append('=', Title.Length).Append('\n');
            foreach (string line in BodyLines())
            {
                sb.Append(line).Append('\n');
            }
            string foot = Footer();
            if (foot.Length > 0)
            {
                sb.Append(foot).Append('\n');
            }
            return sb.ToString();
        }
    }
}
